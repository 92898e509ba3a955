export { FulfillmentRail, SDK_VERSION, type ClientOptions } from './client.js';
export * from './errors.js';
export { modeFromKey, type Mode } from './mode.js';
export { ListPromise, paginate, type Page } from './pagination.js';
export type { RequestOptions } from './resources.js';
export { backoffMs, isRetriable, retryAfterMs, retryingFetch, DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type * from './types.js';
export { verifyWebhook, WebhookVerificationError, type WebhookEvent } from './webhooks.js';
