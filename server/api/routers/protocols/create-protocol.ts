import { keyOrUserProcedure } from '@/server/api/procedures';
import { createProtocol } from '@/server/domain/catalog/protocols';
import { createProtocolMeta, ZCreateProtocolRequest, ZCreateProtocolResponse } from './create-protocol.types';

export const createProtocolRoute = keyOrUserProcedure
  .meta(createProtocolMeta)
  .input(ZCreateProtocolRequest)
  .output(ZCreateProtocolResponse)
  .mutation(({ ctx, input }) => createProtocol(ctx.services.database.db, ctx.principal, input));
