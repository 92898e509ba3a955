import { publicProcedure } from '@/server/api/procedures';
import { verifyMagicLink } from '@/server/domain/auth/magic-link';
import { magicLinkVerifyMeta, ZMagicLinkVerifyRequest, ZMagicLinkVerifyResponse } from './magic-link.types';

export const verifyMagicLinkRoute = publicProcedure
  .meta(magicLinkVerifyMeta)
  .input(ZMagicLinkVerifyRequest)
  .output(ZMagicLinkVerifyResponse)
  .mutation(({ ctx, input }) => verifyMagicLink(ctx.services.auth, input.token));
