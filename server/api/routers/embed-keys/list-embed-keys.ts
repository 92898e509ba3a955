import { keyOrUserProcedure } from '@/server/api/procedures';
import { listEmbedKeys } from '@/server/domain/embed/keys';
import { listEmbedKeysMeta, ZListEmbedKeysRequest, ZListEmbedKeysResponse } from './list-embed-keys.types';

export const listEmbedKeysRoute = keyOrUserProcedure
  .meta(listEmbedKeysMeta)
  .input(ZListEmbedKeysRequest)
  .output(ZListEmbedKeysResponse)
  .query(({ ctx, input }) => listEmbedKeys(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }));
