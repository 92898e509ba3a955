import { sessionProcedure } from '@/server/api/procedures';
import { listApiKeysWithCreators } from '@/server/domain/developer/key-creators';
import { consoleApiKeysMeta, ZConsoleListApiKeysRequest, ZConsoleListApiKeysResponse } from './api-keys-with-creators.types';

export const consoleListApiKeysRoute = sessionProcedure
  .meta(consoleApiKeysMeta)
  .input(ZConsoleListApiKeysRequest)
  .output(ZConsoleListApiKeysResponse)
  .query(({ ctx }) => listApiKeysWithCreators(ctx.services.database.db, ctx.principal));
