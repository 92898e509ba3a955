import { publicProcedure } from '@/server/api/procedures';
import { acceptInvite } from '@/server/domain/auth/invites';
import { acceptInviteMeta, ZAcceptInviteRequest, ZAcceptInviteResponse } from './accept-invite.types';

export const acceptInviteRoute = publicProcedure
  .meta(acceptInviteMeta)
  .input(ZAcceptInviteRequest)
  .output(ZAcceptInviteResponse)
  .mutation(({ ctx, input }) => acceptInvite(ctx.services.auth, input.token, input.password));
