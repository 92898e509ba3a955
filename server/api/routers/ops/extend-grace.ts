import { opsProcedure } from '@/server/api/procedures';
import { extendGrace } from '@/server/domain/billing/extend-grace';
import { extendGraceMeta, ZExtendGraceRequest, ZExtendGraceResponse } from './extend-grace.types';

export const extendGraceRoute = opsProcedure
  .meta(extendGraceMeta)
  .input(ZExtendGraceRequest)
  .output(ZExtendGraceResponse)
  .mutation(({ ctx, input }) => extendGrace(ctx.services.database.db, input.tenantId, input.mode === 'live'));
