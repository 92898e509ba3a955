import { keyOrUserProcedure } from '@/server/api/procedures';
import { listApiKeys } from '@/server/domain/developer/api-keys';
import { listApiKeysMeta, ZListApiKeysRequest, ZListApiKeysResponse } from './list-api-keys.types';

export const listApiKeysRoute = keyOrUserProcedure
  .meta(listApiKeysMeta)
  .input(ZListApiKeysRequest)
  .output(ZListApiKeysResponse)
  .query(({ ctx }) => listApiKeys(ctx.services.database.db, ctx.principal));
