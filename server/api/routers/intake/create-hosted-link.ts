import { keyOrUserProcedure } from '@/server/api/procedures';
import { createHostedLink } from '@/server/domain/intake/hosted-links';
import { createHostedLinkMeta, ZCreateHostedLinkRequest, ZCreateHostedLinkResponse } from './create-hosted-link.types';

export const createHostedLinkRoute = keyOrUserProcedure
  .meta(createHostedLinkMeta)
  .input(ZCreateHostedLinkRequest)
  .output(ZCreateHostedLinkResponse)
  .mutation(({ ctx, input }) =>
    createHostedLink(ctx.services.database.db, ctx.principal, input, { mailer: ctx.services.auth.mailer, publicUrl: ctx.services.auth.publicUrl }, ctx.state.requestId),
  );
