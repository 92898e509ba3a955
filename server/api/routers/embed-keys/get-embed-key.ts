import { keyOrUserProcedure } from '@/server/api/procedures';
import { getEmbedKey } from '@/server/domain/embed/keys';
import { getEmbedKeyMeta, ZGetEmbedKeyRequest, ZGetEmbedKeyResponse } from './get-embed-key.types';

export const getEmbedKeyRoute = keyOrUserProcedure
  .meta(getEmbedKeyMeta)
  .input(ZGetEmbedKeyRequest)
  .output(ZGetEmbedKeyResponse)
  .query(({ ctx, input }) => getEmbedKey(ctx.services.database.db, ctx.principal, input.id));
