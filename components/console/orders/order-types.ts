import type { RouterOutputs } from '@/web/console/types';

/** The order answers the console reads, inferred from the router (the detail is PHI). */
export type Order = RouterOutputs['orders']['listOrders'][number];
export type OrderStatus = Order['status'];
export type OrderDetail = RouterOutputs['orders']['getOrder'];
export type OrderTimelineEntry = OrderDetail['timeline'][number];
export type OrderNotice = RouterOutputs['orders']['listOrderNotices'][number];
export type ListedOrder = RouterOutputs['orders']['ordersWithNames'][number];
export type QueuedOrder = RouterOutputs['orders']['approvalQueue']['orders'][number];
export type ApprovedOrder = RouterOutputs['orders']['approveOrder'];

// Values the pages need at run time; the server's list is ORDER_STATUSES in db/schema/orders.ts.
export const ORDER_STATUS_LIST = [
  'draft',
  'pending_approval',
  'approved',
  'submitting',
  'submitted',
  'accepted',
  'shipped',
  'delivered',
  'rejected',
  'cancelled',
] as const satisfies readonly OrderStatus[];

export const isOrderStatus = (s: string | undefined): s is OrderStatus => !!s && (ORDER_STATUS_LIST as readonly string[]).includes(s);

/** Statuses an order can still be cancelled from (the API refuses delivered and cancelled ones). */
export const isCancellable = (s: OrderStatus) => s !== 'delivered' && s !== 'cancelled';

/** Statuses in which the pharmacy or the dispatch will still move the order without anyone in the console. */
const IN_FLIGHT: readonly OrderStatus[] = ['approved', 'submitting', 'submitted', 'accepted', 'shipped'];
export const isInFlight = (s: OrderStatus | undefined) => !!s && IN_FLIGHT.includes(s);

/** How often a page re-reads an order in flight. */
export const POLL_MS = 2000;

/** One page of the order list. */
export const ORDER_PAGE_SIZE = 25;
