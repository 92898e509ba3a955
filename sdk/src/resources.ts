import type { FulfillmentRail } from './client.js';
import type { BodyOf, QueryOf } from './types.js';

/** Per-call options of a mutation. */
export interface RequestOptions {
  /** Your own key (a UUID) to make a call safe to repeat across processes; the SDK makes one per call otherwise. */
  idempotencyKey?: string;
}

const headers = (o?: RequestOptions) => (o?.idempotencyKey ? { 'Idempotency-Key': o.idempotencyKey } : undefined);
const LIMIT = 100;

// Thin, Stripe-shaped wrappers over the typed paths; everything else is `client.get/post/patch/delete/list`.
abstract class Resource {
  constructor(protected readonly client: FulfillmentRail) {}
}

export class Orders extends Resource {
  /** Newest first; `await` for the first page, `for await` for every order. */
  list(query: Omit<QueryOf<'get', '/orders'>, 'starting_after'> = {}) {
    return this.client.list('/orders', { params: { query: { limit: LIMIT, ...query } } });
  }
  create(body: BodyOf<'post', '/orders'>, o?: RequestOptions) {
    return this.client.post('/orders', { body, headers: headers(o) });
  }
  retrieve(id: string) {
    return this.client.get('/orders/{id}', { params: { path: { id } } });
  }
  resolve(id: string, body: BodyOf<'post', '/orders/{id}/resolve'>, o?: RequestOptions) {
    return this.client.post('/orders/{id}/resolve', { params: { path: { id } }, body, headers: headers(o) });
  }
  /** A provider's own session only (SPEC: no API key can approve). */
  approve(id: string, o?: RequestOptions) {
    return this.client.post('/orders/{id}/approve', { params: { path: { id } }, headers: headers(o) });
  }
  submit(id: string, o?: RequestOptions) {
    return this.client.post('/orders/{id}/submit', { params: { path: { id } }, headers: headers(o) });
  }
  reroute(id: string, body: BodyOf<'post', '/orders/{id}/reroute'> = {}, o?: RequestOptions) {
    return this.client.post('/orders/{id}/reroute', { params: { path: { id } }, body, headers: headers(o) });
  }
  cancel(id: string, o?: RequestOptions) {
    return this.client.post('/orders/{id}/cancel', { params: { path: { id } }, headers: headers(o) });
  }
}

export class Patients extends Resource {
  list(query: Omit<QueryOf<'get', '/patients'>, 'starting_after'> = {}) {
    return this.client.list('/patients', { params: { query: { limit: LIMIT, ...query } } });
  }
  create(body: BodyOf<'post', '/patients'>, o?: RequestOptions) {
    return this.client.post('/patients', { body, headers: headers(o) });
  }
  retrieve(id: string) {
    return this.client.get('/patients/{id}', { params: { path: { id } } });
  }
  update(id: string, body: BodyOf<'patch', '/patients/{id}'>, o?: RequestOptions) {
    return this.client.patch('/patients/{id}', { params: { path: { id } }, body, headers: headers(o) });
  }
}

export class Products extends Resource {
  list() {
    return this.client.get('/products');
  }
  create(body: BodyOf<'post', '/products'>, o?: RequestOptions) {
    return this.client.post('/products', { body, headers: headers(o) });
  }
}

export class Pharmacies extends Resource {
  list() {
    return this.client.list('/pharmacies');
  }
  create(body: BodyOf<'post', '/pharmacies'>, o?: RequestOptions) {
    return this.client.post('/pharmacies', { body, headers: headers(o) });
  }
}

export class Events extends Resource {
  /** The event log, newest first (a list object: `{data, has_more}`). */
  list(query: Omit<QueryOf<'get', '/developer/events'>, 'starting_after'> = {}) {
    return this.client.list('/developer/events', { params: { query: { limit: LIMIT, ...query } } });
  }
  retrieve(id: string) {
    return this.client.get('/developer/events/{id}', { params: { path: { id } } });
  }
  replay(id: string, body: BodyOf<'post', '/developer/events/{id}/replay'> = {}, o?: RequestOptions) {
    return this.client.post('/developer/events/{id}/replay', { params: { path: { id } }, body, headers: headers(o) });
  }
}

export class WebhookEndpoints extends Resource {
  list() {
    return this.client.get('/developer/webhooks');
  }
  /** The answer carries the endpoint's `whsec_` secret, once. */
  create(body: BodyOf<'post', '/developer/webhooks'>, o?: RequestOptions) {
    return this.client.post('/developer/webhooks', { body, headers: headers(o) });
  }
  update(id: string, body: BodyOf<'patch', '/developer/webhooks/{id}'>, o?: RequestOptions) {
    return this.client.patch('/developer/webhooks/{id}', { params: { path: { id } }, body, headers: headers(o) });
  }
  delete(id: string, o?: RequestOptions) {
    return this.client.delete('/developer/webhooks/{id}', { params: { path: { id } }, headers: headers(o) });
  }
}
