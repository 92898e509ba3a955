import { keyOrUserProcedure } from '@/server/api/procedures';
import { listProtocols } from '@/server/domain/catalog/protocols';
import { activeFilter } from '../products/product.types';
import { listProtocolsMeta, ZListProtocolsRequest, ZListProtocolsResponse } from './list-protocols.types';

export const listProtocolsRoute = keyOrUserProcedure
  .meta(listProtocolsMeta)
  .input(ZListProtocolsRequest)
  .output(ZListProtocolsResponse)
  .query(({ ctx, input }) =>
    listProtocols(ctx.services.database.db, ctx.principal, { active: activeFilter(input.active), limit: input.limit, startingAfter: input.starting_after }),
  );
