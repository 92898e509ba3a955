import type { DeliveryFacts } from '@/server/domain/notices/views';
import { truthy, type Config } from '@/server/lib/config';

/** How this deployment delivers notices, from its configuration. */
export const deliveryFacts = (c: Config): DeliveryFacts => ({
  smtp: Boolean(c.SMTP_URL),
  smsProvider: c.SMS_PROVIDER,
  outboxes: c.NODE_ENV !== 'production' || truthy(c.MAIL_OUTBOX_IN_PRODUCTION),
});
