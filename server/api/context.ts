import type { ServingKeyCache } from '@/server/domain/embed/serving-key-cache';
import type { ExternalPayments } from '@/server/integrations/payments/port';
import type { IncomingMessage } from 'node:http';
import { disableBodyCoercion } from './strict-body';
import type { Config } from '@/server/lib/config';
import type { Database } from '@/server/db/types';
import type { RateLimiter } from '@/server/lib/rate-limit';
import type { AuthDeps } from '@/server/domain/auth/deps';

/** Process-wide services every request can reach; built once at start. */
export interface Services {
  database: Database;
  config: Config;
  rateLimiter: RateLimiter;
  /** Public (embed key) paths, per key and client IP: EMBED_RATE_LIMIT a second. */
  embedRateLimiter: RateLimiter;
  /** Embed keys as public requests resolve them, from memory, forgotten on change (DESIGN decision 37). */
  servingKeys: ServingKeyCache;
  auth: AuthDeps;
  /** Stripe when STRIPE_SECRET_KEY is set (live accounts only); null = the simulated provider everywhere. */
  payments: ExternalPayments | null;
  close(): Promise<void>;
}

/** Per-request facts shared between the HTTP layer and the procedures. */
export interface RequestState {
  requestId: string;
  method: string;
  path: string;
  rawBody: string;
  /** Status and headers a procedure or middleware wants on its (success or error) response. */
  status?: number;
  headers: Record<string, string>;
  error?: unknown;
  /** Input schemas of the matched procedure when the input is a JSON body. */
  bodyInputs?: unknown[];
  /** The matched /v1 operation's path template (`/orders/{id}`), for the metrics' route label. */
  routeTemplate?: string;
  /** The client's address: the peer, or through TRUST_PROXY's hops the forwarding client (server/lib/trust-proxy.ts). */
  clientAddress?: string;
}

/** `rest`: /v1 through trpc-to-openapi; `trpc`: the console's /api/trpc, where one request may batch several calls. */
export type Transport = 'rest' | 'trpc';

export interface Context {
  services: Services;
  req: IncomingMessage;
  state: RequestState;
  transport: Transport;
}

export function createContextFactory(services: Services, transport: Transport = 'rest') {
  return ({ req }: { req: IncomingMessage }): Context => {
    const state = (req as IncomingMessage & { frState: RequestState }).frState;
    state.bodyInputs?.forEach(disableBodyCoercion);
    return { services, req, state, transport };
  };
}
