import createClient, { type Client } from 'openapi-fetch';
import type { HttpMethod } from 'openapi-typescript-helpers';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { modeFromKey, type Mode } from './mode.js';
import { ListPromise, type Page } from './pagination.js';
import { Events, Orders, Patients, Pharmacies, Products, WebhookEndpoints } from './resources.js';
import { DEFAULT_RETRY, retryingFetch, type RetryOptions } from './retry.js';
import type { DataOf, InitArgs, InitFor, ItemOf, ListPath, PathFor } from './types.js';

export interface ClientOptions extends Partial<RetryOptions> {
  /** The service's origin; `/v1` is added. Default `http://localhost:3000` (what `npm start` serves). */
  baseUrl?: string;
  /** The fetch to send with (a proxy's, a test's). Default: the global one. */
  fetch?: typeof fetch;
}

export const SDK_VERSION = '0.1.0';

/**
 * The Fulfillment Rail API client. `client.orders.create(…)` and the other resources cover the common calls;
 * `client.get/post/patch/delete(path, init)` reach every operation of the OpenAPI document, typed end to end;
 * `client.api` is the underlying openapi-fetch client (answers `{data, error, response}` instead of throwing).
 * Every failure is thrown as a `FulfillmentRailError` subclass named after the envelope's `type`.
 */
export class FulfillmentRail {
  readonly api: Client<paths>;
  /** `sandbox` or `live`, from the key's prefix; null for a session token. */
  readonly mode: Mode | null;
  readonly baseUrl: string;

  readonly orders = new Orders(this);
  readonly patients = new Patients(this);
  readonly products = new Products(this);
  readonly pharmacies = new Pharmacies(this);
  readonly events = new Events(this);
  readonly webhookEndpoints = new WebhookEndpoints(this);

  /**
   * `apiKey`: an API key (`nk_sandbox_…`, `nk_live_…`, `rk_…`) or a session token from sign-in; null only for the
   * operations that take no credential (sign-in, the public flow runtime).
   */
  constructor(apiKey: string | null, options: ClientOptions = {}) {
    if (apiKey === '' || apiKey === undefined) throw new Error('An API key is required: new FulfillmentRail(process.env.FR_API_KEY!)');
    const { baseUrl = 'http://localhost:3000', fetch: baseFetch = globalThis.fetch, ...retry } = options;
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.mode = apiKey === null ? null : modeFromKey(apiKey);
    this.api = createClient<paths>({
      baseUrl: `${this.baseUrl}/v1`,
      headers: { ...(apiKey === null ? {} : { Authorization: `Bearer ${apiKey}` }), 'User-Agent': `fulfillment-rail-sdk-node/${SDK_VERSION}` },
      fetch: retryingFetch(baseFetch, { ...DEFAULT_RETRY, ...retry }),
    });
  }

  get livemode(): boolean {
    return this.mode === 'live';
  }

  private async send<M extends HttpMethod>(method: M, path: string, init: unknown): Promise<unknown> {
    const res = (await this.api.request(method as never, path as never, init as never)) as { data?: unknown; error?: unknown; response: Response };
    if (!res.response.ok) throw errorFromResponse(res.response.status, res.error, res.response.headers);
    return res.data;
  }

  get<P extends PathFor<'get'>, I extends InitFor<'get', P>>(path: P, ...init: InitArgs<I>): Promise<DataOf<'get', P, I>> {
    return this.send('get', path, init[0]) as Promise<DataOf<'get', P, I>>;
  }
  post<P extends PathFor<'post'>, I extends InitFor<'post', P>>(path: P, ...init: InitArgs<I>): Promise<DataOf<'post', P, I>> {
    return this.send('post', path, init[0]) as Promise<DataOf<'post', P, I>>;
  }
  patch<P extends PathFor<'patch'>, I extends InitFor<'patch', P>>(path: P, ...init: InitArgs<I>): Promise<DataOf<'patch', P, I>> {
    return this.send('patch', path, init[0]) as Promise<DataOf<'patch', P, I>>;
  }
  delete<P extends PathFor<'delete'>, I extends InitFor<'delete', P>>(path: P, ...init: InitArgs<I>): Promise<DataOf<'delete', P, I>> {
    return this.send('delete', path, init[0]) as Promise<DataOf<'delete', P, I>>;
  }

  /**
   * Any list operation with a `starting_after` cursor: awaited, the first page; `for await`, every item.
   * `client.list('/patients', {params: {query: {limit: 50}}})`.
   */
  list<P extends ListPath, I extends InitFor<'get', P>>(path: P, ...init: InitArgs<I>): ListPromise<ItemOf<P> & { id: string }, DataOf<'get', P, I> & Page<ItemOf<P> & { id: string }>> {
    const base = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } } & Record<string, unknown>;
    const query = base.params?.query ?? {};
    const limit = typeof query.limit === 'number' ? query.limit : undefined;
    const fetchPage = (startingAfter: string | undefined) =>
      this.send('get', path, { ...base, params: { ...base.params, query: { ...query, ...(startingAfter ? { starting_after: startingAfter } : {}) } } }) as Promise<
        DataOf<'get', P, I> & Page<ItemOf<P> & { id: string }>
      >;
    return new ListPromise(fetchPage, limit);
  }
}
