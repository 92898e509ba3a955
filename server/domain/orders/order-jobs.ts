// The outbox jobs of an order in flight; their handlers are in server/jobs/handlers/orders.ts.

/** Sends a dispatch round its request did not finish (dispatch.ts, `sendFromJob`). */
export const DISPATCH_JOB = 'order.dispatch';
/** Asks the pharmacy where an acknowledged order stands (sync.ts). */
export const SYNC_JOB = 'order.sync';
/** Tells the pharmacy an order it has, or may have, was cancelled (recall.ts). */
export const PHARMACY_CANCEL_JOB = 'order.pharmacy-cancel';
