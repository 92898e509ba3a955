import type { z } from 'zod';
import type { ZOrder, ZOrderDetail } from '@/server/api/routers/orders/order.types';
import type { ZRerouteOrderResponse } from '@/server/api/routers/orders/reroute-order.types';

/** The /v1/orders answers the console reads, as the API's own schemas declare them. The detail is PHI. */
export type Order = z.output<typeof ZOrder>;
export type OrderStatus = Order['status'];
export type OrderDetail = z.output<typeof ZOrderDetail>;
export type OrderPrescription = OrderDetail['prescriptions'][number];
export type OrderShipment = NonNullable<OrderDetail['shipment']>;
export type OrderTimelineEntry = OrderDetail['timeline'][number];
export type RerouteResult = z.output<typeof ZRerouteOrderResponse>;

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

/** One page of GET /v1/orders and of the approval queue. */
export const ORDER_PAGE_SIZE = 25;
