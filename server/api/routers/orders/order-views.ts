import { sessionProcedure } from '@/server/api/procedures';
import { approvalQueue, listOrdersNamed, namesOf, orderStatuses } from '@/server/domain/orders/console-views';
import {
  consoleNamesMeta,
  consoleOrdersMeta,
  ZApprovalQueueRequest,
  ZApprovalQueueResponse,
  ZConsoleListOrdersRequest,
  ZConsoleListOrdersResponse,
  ZNamesRequest,
  ZNamesResponse,
  ZOrderStatusesRequest,
  ZOrderStatusesResponse,
} from './order-views.types';

const orders = sessionProcedure.meta(consoleOrdersMeta);

export const consoleListOrdersRoute = orders
  .input(ZConsoleListOrdersRequest)
  .output(ZConsoleListOrdersResponse)
  .query(({ ctx, input }) => listOrdersNamed(ctx.services.database.db, ctx.principal, { status: input.status, limit: input.limit, startingAfter: input.starting_after }, ctx.state.requestId));

export const consoleApprovalQueueRoute = orders
  .input(ZApprovalQueueRequest)
  .output(ZApprovalQueueResponse)
  .query(({ ctx, input }) => approvalQueue(ctx.services.database.db, ctx.principal, input.limit, ctx.state.requestId));

export const consoleOrderNamesRoute = sessionProcedure
  .meta(consoleNamesMeta)
  .input(ZNamesRequest)
  .output(ZNamesResponse)
  .query(({ ctx, input }) => namesOf(ctx.services.database.db, ctx.principal, input.ids));

export const consoleOrderStatusesRoute = orders
  .input(ZOrderStatusesRequest)
  .output(ZOrderStatusesResponse)
  .query(({ ctx, input }) => orderStatuses(ctx.services.database.db, ctx.principal, input.ids));
