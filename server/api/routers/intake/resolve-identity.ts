import { sessionProcedure } from '@/server/api/procedures';
import { resolveIdentity } from '@/server/domain/intake/identity-resolution';
import { resolveIdentityMeta, ZResolveIdentityRequest, ZResolveIdentityResponse } from './resolve-identity.types';

/** A provider's or admin's decision on a flagged patient match (DESIGN decision 32); the role is checked in the domain. */
export const resolveIdentityRoute = sessionProcedure
  .meta(resolveIdentityMeta)
  .input(ZResolveIdentityRequest)
  .output(ZResolveIdentityResponse)
  .mutation(({ ctx, input }) => resolveIdentity(ctx.services.database, ctx.principal, input.id, { patient: input.patient }, ctx.state.requestId));
