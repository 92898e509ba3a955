import type { CatalogFeedRow } from '../types';

/** One HTTP exchange as the checker needs it: a status and the body's text. */
export type ProtocolFetch = (
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; signal: AbortSignal },
) => Promise<{ status: number; text: string }>;

/** A status callback as it arrived: the Standard Webhooks headers and the raw body. */
export interface ReceivedCallback {
  headers: Record<string, string | undefined>;
  body: string;
}

/** Where the pharmacy's callbacks for the test order arrive: a local listener (CLI) or the service's own endpoint (server). */
export interface CallbackReceiver {
  /** The `callbackUrl` the test order carries. */
  url: string;
  /** Resolves with every callback so far once `enough` says so, or when `timeoutMs` has passed. */
  waitFor(enough: (received: ReceivedCallback[]) => boolean, timeoutMs: number): Promise<ReceivedCallback[]>;
}

export interface CheckOptions {
  /** The pharmacy's base URL, as a connection's `baseUrl`. */
  baseUrl: string;
  /** The connection's `whsec_` secret. */
  secret: string;
  fetch: ProtocolFetch;
  callbacks: CallbackReceiver;
  /** The longest any answer may take (the connection's `timeoutMs`); longer is a failed response-time check. */
  timeLimitMs: number;
  /** How long to wait for the test order's callbacks. */
  callbackWaitMs: number;
  /** When set, checks that would start after this many milliseconds are reported as not run. */
  budgetMs?: number;
}

/** What one request of the run saw; the response-time and status-names checks read them all. */
export interface Exchange {
  label: string;
  /** null: no answer within the time limit (or none at all). */
  status: number | null;
  text: string;
  json: unknown;
  ms: number;
  error: string | null;
}

/** What the checks share as they run, in order. */
export interface RunState {
  options: CheckOptions;
  /** When the run began (ms since the epoch): with `budgetMs`, no wait outlasts the run's budget. */
  startedAt: number;
  /** The test order's Idempotency-Key, and one no order was ever created with. */
  key: string;
  unknownKey: string;
  /** The row of the pharmacy's catalog the test order asks for, when it lists one in stock. */
  catalogRow: CatalogFeedRow | null;
  /** The test order as created: what later answers must keep naming. */
  created: { externalId: string; status: string; reasonCode: string | null } | null;
  /** The status the cancel answered, when it answered. */
  cancelledAs: string | null;
  exchanges: Exchange[];
  callbacks: ReceivedCallback[];
}

export interface CheckOutcome {
  passed: boolean;
  seen: string;
}

export interface Check {
  name: string;
  title: string;
  /** What a pharmacy that keeps the contract does, in one sentence. */
  expected: string;
  /** Checks whose result this one builds on: when one of them failed, this one is not run (and fails). */
  needs?: string[];
  run(state: RunState): Promise<CheckOutcome>;
}

export interface CheckResult {
  name: string;
  title: string;
  passed: boolean;
  expected: string;
  seen: string;
  ms: number;
}

export interface CheckReport {
  passed: boolean;
  checks: CheckResult[];
  startedAt: string;
  finishedAt: string;
}
