import type { JobHandler } from './types';
import { webhookDeliveryHandler } from './webhook-delivery';

/** One handler per job kind; a new kind (pharmacy dispatch, …) registers here. */
export const JOB_HANDLERS: JobHandler[] = [webhookDeliveryHandler];
