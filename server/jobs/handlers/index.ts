import type { JobHandler } from './types';
import { billingNoticeHandler } from './billing-notice';
import { flowPostbackHandler } from './flow-postback';
import { orderDispatchHandler, orderSyncHandler, pharmacyCancelHandler } from './orders';
import { webhookDeliveryHandler } from './webhook-delivery';

/** One handler per job kind; a new kind (pharmacy dispatch, …) registers here. */
export const JOB_HANDLERS: JobHandler[] = [webhookDeliveryHandler, orderDispatchHandler, orderSyncHandler, pharmacyCancelHandler, flowPostbackHandler, billingNoticeHandler];
