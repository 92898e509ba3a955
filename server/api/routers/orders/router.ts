import { router } from '@/server/api/trpc';
import { approveOrderRoute } from './approve-order';
import { cancelOrderRoute } from './cancel-order';
import { createOrderRoute } from './create-order';
import { getOrderRoute } from './get-order';
import { listOrdersRoute } from './list-orders';
import { listOrderNoticesRoute } from './list-order-notices';
import { planRoutingRoute } from './plan-routing';
import { reconciliationRoute } from './reconciliation';
import { rerouteOrderRoute } from './reroute-order';
import { resolveOrderRoute } from './resolve-order';
import { submitOrderRoute } from './submit-order';
import { consoleDeclineOrderRoute } from './decline-order';
import { consoleApprovalQueueRoute, consoleListOrdersRoute, consoleOrderNamesRoute, consoleOrderStatusesRoute } from './order-views';

// Fixed paths (`/orders/routing/plan`) come before the `{id}` paths: the first matching path wins.
export const ordersRouter = router({
  planRouting: planRoutingRoute,
  reconciliation: reconciliationRoute,
  listOrders: listOrdersRoute,
  createOrder: createOrderRoute,
  getOrder: getOrderRoute,
  listOrderNotices: listOrderNoticesRoute,
  resolveOrder: resolveOrderRoute,
  approveOrder: approveOrderRoute,
  submitOrder: submitOrderRoute,
  rerouteOrder: rerouteOrderRoute,
  cancelOrder: cancelOrderRoute,
  // The console's views (tRPC only): names beside ids, the approval queue, a cheap poll of statuses.
  ordersWithNames: consoleListOrdersRoute,
  approvalQueue: consoleApprovalQueueRoute,
  actorNames: consoleOrderNamesRoute,
  statuses: consoleOrderStatusesRoute,
  declineOrder: consoleDeclineOrderRoute,
});
