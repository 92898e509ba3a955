import { keyOrUserProcedure } from '@/server/api/procedures';
import { updateEmbedKey } from '@/server/domain/embed/keys';
import { updateEmbedKeyMeta, ZUpdateEmbedKeyRequest, ZUpdateEmbedKeyResponse } from './update-embed-key.types';

export const updateEmbedKeyRoute = keyOrUserProcedure
  .meta(updateEmbedKeyMeta)
  .input(ZUpdateEmbedKeyRequest)
  .output(ZUpdateEmbedKeyResponse)
  .mutation(({ ctx, input: { id, ...changes } }) => updateEmbedKey(ctx.services.database.db, ctx.principal, id, changes));
