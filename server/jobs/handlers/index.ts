import type { JobHandler } from './types';
import { billingNoticeHandler } from './billing-notice';
import { flowPostbackHandler } from './flow-postback';
import { orderDispatchHandler, orderSyncHandler, pharmacyCancelHandler } from './orders';
import { patientLoginMailHandler } from './patient-login-mail';
import { patientNoticeHandler } from './patient-notice';
import { pharmacyVerifyHandler } from './pharmacy-verify';
import { webhookDeliveryHandler } from './webhook-delivery';

/** One handler per job kind; a new kind (pharmacy dispatch, …) registers here. */
export const JOB_HANDLERS: JobHandler[] = [webhookDeliveryHandler, orderDispatchHandler, orderSyncHandler, pharmacyCancelHandler, flowPostbackHandler, billingNoticeHandler, patientLoginMailHandler, patientNoticeHandler, pharmacyVerifyHandler];
