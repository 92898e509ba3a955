import { keyOrUserProcedure } from '@/server/api/procedures';
import { createApiKey } from '@/server/domain/developer/api-keys';
import { createApiKeyMeta, ZCreateApiKeyRequest, ZCreateApiKeyResponse } from './create-api-key.types';

export const createApiKeyRoute = keyOrUserProcedure
  .meta(createApiKeyMeta)
  .input(ZCreateApiKeyRequest)
  .output(ZCreateApiKeyResponse)
  .mutation(({ ctx, input }) => createApiKey(ctx.services.database.db, ctx.principal, ctx.principal.tenantId, input));
