import { ZHttpSettings } from '../settings';

const timeout = ZHttpSettings.shape.timeoutMs;

/**
 * The waits and limits the protocol document states. The request timeout comes from the connection's settings
 * schema itself; the worker's defaults (DISPATCH_GRACE_MS, ORDER_SYNC_INTERVAL_MS) are restated here and
 * tests/no-database/pharmacy-protocol-document.test.ts holds them equal to the configuration's.
 */
export const PROTOCOL_TIMINGS = {
  defaultTimeoutMs: timeout.parse(undefined),
  minTimeoutMs: timeout.unwrap().minValue ?? 0,
  maxTimeoutMs: timeout.unwrap().maxValue ?? Infinity,
  dispatchGraceMs: 30_000,
  syncIntervalMs: 15_000,
  /** Standard Webhooks' window: a signed timestamp further than this from now is refused. */
  signatureToleranceSeconds: 300,
  /** The largest answer the adapter reads. */
  maxAnswerBytes: 4 * 1024 * 1024,
} as const;
