import { keyOrUserProcedure } from '@/server/api/procedures';
import { updateProtocol } from '@/server/domain/catalog/protocols';
import { updateProtocolMeta, ZUpdateProtocolRequest, ZUpdateProtocolResponse } from './update-protocol.types';

export const updateProtocolRoute = keyOrUserProcedure
  .meta(updateProtocolMeta)
  .input(ZUpdateProtocolRequest)
  .output(ZUpdateProtocolResponse)
  .mutation(({ ctx, input }) => updateProtocol(ctx.services.database.db, ctx.principal, input));
