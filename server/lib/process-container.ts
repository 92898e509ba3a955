/**
 * The process container: everything this process keeps once, whichever copy of a module asks for it.
 *
 * Why one `globalThis` slot: the custom server (server/http/main.ts) loads the server modules once, and Next.js
 * compiles and loads its own copy of every server module a page, route handler or the proxy imports, in the
 * same process. A module-level `const` therefore exists twice; the services the custom server built, the
 * worker it started, the Prometheus registry (a metric may be registered once), the caches a change must
 * empty: each must be one per process, and `globalThis` is the one object both copies share. This module is
 * the only one that touches it (eslint.config.js refuses `globalThis` elsewhere), under one key that both
 * copies derive alike: `Symbol.for` returns the same symbol for the same name across module instances.
 *
 * It sits in server/lib, the bottom layer, because every layer keeps such state (the metrics here in
 * server/lib, the domain's caches, the worker, the HTTP lifecycle, the console's helpers in web/); so it knows
 * none of their types. Each piece is created on first use by its owner, who gives it its type
 * (`processState(name, create)`), and only that owner reads or writes it.
 */
const SLOT = Symbol.for('fulfillment-rail.process');

/** Each piece of process-wide state, and the one module that owns it. */
export type ProcessStateName =
  /** The Services the custom server built at start (server/api/process-services.ts). */
  | 'services'
  /** The worker of the web process (RUN_WORKER) or of `npm run worker` (server/jobs/global.ts). */
  | 'worker'
  /** Draining, requests in flight and who hears the drain (server/http/lifecycle.ts). */
  | 'lifecycle'
  /** The Prometheus registry and instruments (server/lib/metrics.ts). */
  | 'metrics'
  /** Verified API keys, briefly (server/domain/developer/key-cache.ts). */
  | 'api-key-cache'
  /** The embed key caches that forget on a public change (server/domain/embed/public-changes.ts). */
  | 'serving-key-caches'
  /** Imported certificate signing keys by kid (server/domain/intake/certificate-keys.ts). */
  | 'certificate-signers'
  /** Refresh-token rotations in flight, shared by the console's requests (web/console/refresh.ts). */
  | 'console-refresh'
  /** Whether the request in hand came over https through a trusted proxy (server/lib/forwarded-https.ts). */
  | 'forwarded-https';

type Container = Map<ProcessStateName, unknown>;

const container = (): Container => {
  const shared = globalThis as typeof globalThis & { [SLOT]?: Container };
  return (shared[SLOT] ??= new Map());
};

/**
 * This process's `name`, made by `create` the first time any module copy asks. The type is its owner's word:
 * one name has one owner (the list above), so every caller passes the same `create`.
 */
export function processState<T>(name: ProcessStateName, create: () => T): T {
  const state = container();
  if (!state.has(name)) state.set(name, create());
  return state.get(name) as T;
}

/**
 * A piece of process state that is one value handed over later (the services built at start, the worker once
 * started): an empty box until its owner sets `current`.
 */
export function processSlot<T>(name: ProcessStateName): { current?: T } {
  return processState(name, (): { current?: T } => ({}));
}
