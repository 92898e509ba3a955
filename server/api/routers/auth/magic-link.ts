import { publicProcedure } from '@/server/api/procedures';
import { clientIp } from '@/server/api/client-ip';
import { requestMagicLink } from '@/server/domain/auth/magic-link';
import { magicLinkMeta, ZMagicLinkRequest, ZMagicLinkResponse } from './magic-link.types';

export const magicLinkRoute = publicProcedure
  .meta(magicLinkMeta)
  .input(ZMagicLinkRequest)
  .output(ZMagicLinkResponse)
  .mutation(({ ctx, input }) => requestMagicLink(ctx.services.auth, input.email, clientIp(ctx.req, ctx.services.auth.consoleSecret)));
