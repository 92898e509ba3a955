import { keyOrUserProcedure } from '@/server/api/procedures';
import { createEmbedKey } from '@/server/domain/embed/keys';
import { createEmbedKeyMeta, ZCreateEmbedKeyRequest, ZCreateEmbedKeyResponse } from './create-embed-key.types';

export const createEmbedKeyRoute = keyOrUserProcedure
  .meta(createEmbedKeyMeta)
  .input(ZCreateEmbedKeyRequest)
  .output(ZCreateEmbedKeyResponse)
  .mutation(({ ctx, input }) => createEmbedKey(ctx.services.database.db, ctx.principal, input));
