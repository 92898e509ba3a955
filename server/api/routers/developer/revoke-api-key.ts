import { keyOrUserProcedure } from '@/server/api/procedures';
import { revokeApiKey } from '@/server/domain/developer/api-keys';
import { revokeApiKeyMeta, ZRevokeApiKeyRequest, ZRevokeApiKeyResponse } from './revoke-api-key.types';

export const revokeApiKeyRoute = keyOrUserProcedure
  .meta(revokeApiKeyMeta)
  .input(ZRevokeApiKeyRequest)
  .output(ZRevokeApiKeyResponse)
  .mutation(({ ctx, input }) => revokeApiKey(ctx.services.database.db, ctx.principal, input.id));
