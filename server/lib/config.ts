import { z } from 'zod';
import { isDuration } from './duration';
import { isTrustProxy } from './trust-proxy';

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DATA_DIR: z.string().default('.data/pglite'),
  REDIS_URL: z.string().url().optional(),
  OPS_BOOTSTRAP_KEY: z.string().min(16, 'OPS_BOOTSTRAP_KEY must be at least 16 characters').optional(),
  AUTH_SECRET: z.string().min(32).optional(),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('0,5s,5m,30m,2h,5h,10h,10h')
    .refine((v) => v.split(',').every((p) => isDuration(p.trim())), 'comma-separated durations like 0,5s,5m,2h'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
  WEBHOOKS_ALLOW_LOCALHOST: z.enum(['true', 'false', '1', '0']).optional(),
  SEED_DEMO: z.enum(['true', 'false', '1', '0']).optional(),
  RUN_WORKER: z.enum(['true', 'false', '1', '0']).default('true'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  WORKER_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  // A claimed job whose worker died becomes claimable again after this lease.
  WORKER_LEASE_MS: z.coerce.number().int().min(1_000).default(60_000),
  WORKER_MAINTENANCE_MS: z.coerce.number().int().min(100).default(60_000),
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(30, 'events are kept at least 30 days').default(30),
  SSE_HEARTBEAT_MS: z.coerce.number().int().min(100).default(15_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_LIVE: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_SANDBOX: z.coerce.number().int().positive().default(25),
  // Public (embed key) paths, per key and client IP: this many a second, plus as many again as a burst.
  EMBED_RATE_LIMIT: z.coerce.number().int().positive().max(100_000).default(20),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Fulfillment Rail <no-reply@fulfillment-rail.local>'),
  MAIL_OUTBOX_DIR: z.string().default('.data/mail'),
  // Sign-in links in files are for development; a production deployment without SMTP must opt in (tests, demos).
  MAIL_OUTBOX_IN_PRODUCTION: z.enum(['true', 'false', '1', '0']).optional(),
  // DESIGN decision 41: patients' text messages go to the outbox directory (the default) or through Twilio; sandbox
  // messages always to the outbox. The outbox follows the mail outbox's production rule (MAIL_OUTBOX_IN_PRODUCTION).
  SMS_PROVIDER: z.enum(['outbox', 'twilio']).default('outbox'),
  SMS_OUTBOX_DIR: z.string().default('.data/sms'),
  TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, 'a Twilio account SID: AC followed by 32 hex digits').optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16, 'TWILIO_AUTH_TOKEN must be at least 16 characters').optional(),
  TWILIO_FROM: z.string().regex(/^(\+[1-9]\d{7,14}|MG[0-9a-fA-F]{32})$/, 'a sending number in E.164 (+15551234567) or a messaging service SID (MG…)').optional(),
  // A Twilio-compatible API base (a local fake in tests, a proxy); unset = api.twilio.com.
  TWILIO_API_URL: z.string().url().optional(),
  // Delays before each retry of a patient notice whose transport failed; after the last one it is `failed`.
  NOTICE_RETRY_SCHEDULE: z
    .string()
    .default('30s,2m,10m,1h,6h')
    .refine((v) => v.split(',').every((p) => isDuration(p.trim())), 'comma-separated durations like 30s,2m,10m,1h'),
  PUBLIC_URL: z.string().url().optional(),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
  // Approve and submit dispatch in the request; the outbox job is the safety net, run this long after.
  DISPATCH_INLINE: z.enum(['true', 'false', '1', '0']).default('true'),
  DISPATCH_GRACE_MS: z.coerce.number().int().min(0).default(30_000),
  // How often the worker asks a pharmacy about an order it has not finished (polling complements callbacks).
  ORDER_SYNC_INTERVAL_MS: z.coerce.number().int().min(50).default(15_000),
  // Orders in `submitting` longer than this are listed as stuck by /orders/reconciliation.
  STUCK_SUBMITTING_MS: z.coerce.number().int().min(1_000).default(300_000),
  // DESIGN decision 22: an OpenAI-compatible model drafts questionnaires when both are set; else the offline generator.
  LLM_BASE_URL: z.string().url().optional(),
  LLM_MODEL: z.string().min(1).max(200).optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  // A draft request waits at most this long for the model, then answers 503.
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
  // DESIGN decision 29: live billing goes through Stripe when the secret key is set, else the simulated provider.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_STARTER: z.string().min(1).optional(),
  STRIPE_PRICE_GROWTH: z.string().min(1).optional(),
  STRIPE_PRICE_SCALE: z.string().min(1).optional(),
  // A Stripe-compatible API base (a local fake in tests, or a proxy); unset = api.stripe.com.
  STRIPE_API_URL: z.string().url().optional(),
  // How often the worker looks for dunning steps, renewals and period-end cancellations that are due.
  WORKER_BILLING_MS: z.coerce.number().int().min(100).default(60_000),
  // Issue 37: `npm start` forks this many web processes sharing PORT (node:cluster); PostgreSQL only when above 1.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // On SIGTERM: /readyz answers 503 at once, the listener stays open this long more (for a balancer to notice),
  // then closes; requests in flight get SHUTDOWN_DRAIN_MS to finish before their connections are cut.
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  // GET /metrics answers only with this bearer token, or on METRICS_PORT (bound to METRICS_HOST, loopback by default).
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  // Issue 49, item 8: behind a balancer, the client's address and https come from the trusted hops' X-Forwarded-*.
  TRUST_PROXY: z
    .string()
    .optional()
    .refine((v) => v === undefined || isTrustProxy(v), 'a hop count (1, 2, …) or a comma-separated list of addresses or CIDR ranges, such as 10.0.0.0/8,fd00::/8'),
}).refine((c) => Boolean(c.LLM_BASE_URL) === Boolean(c.LLM_MODEL), {
  // One without the other would silently fall back to the offline generator: say so at start instead.
  message: 'set LLM_BASE_URL and LLM_MODEL together (or neither, for the offline draft generator)',
  path: ['LLM_MODEL'],
}).refine((c) => !c.STRIPE_SECRET_KEY || Boolean(c.STRIPE_WEBHOOK_SECRET && c.STRIPE_PRICE_STARTER && c.STRIPE_PRICE_GROWTH && c.STRIPE_PRICE_SCALE), {
  // Half a Stripe set-up would take money it cannot record (no webhook secret) or sell a plan it has no price for.
  message: 'with STRIPE_SECRET_KEY set STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_STARTER, STRIPE_PRICE_GROWTH and STRIPE_PRICE_SCALE too',
  path: ['STRIPE_SECRET_KEY'],
}).refine((c) => c.SMS_PROVIDER !== 'twilio' || Boolean(c.TWILIO_ACCOUNT_SID && c.TWILIO_AUTH_TOKEN && c.TWILIO_FROM), {
  // Without them every text message would fail at send time; say so at start instead.
  message: 'with SMS_PROVIDER=twilio set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM too',
  path: ['SMS_PROVIDER'],
}).refine((c) => c.WEB_CONCURRENCY === 1 || Boolean(c.DATABASE_URL), {
  // PGlite is one process's database: a second process cannot open it, so N web processes need PostgreSQL.
  message: 'WEB_CONCURRENCY above 1 needs DATABASE_URL (PostgreSQL): the embedded database serves a single process',
  path: ['WEB_CONCURRENCY'],
}).refine((c) => c.WORKER_LEASE_MS > c.WEBHOOK_TIMEOUT_MS, {
  // A lease shorter than a send would let a second worker start the same delivery while the first still waits.
  message: 'WORKER_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS',
  path: ['WORKER_LEASE_MS'],
});

export type Config = z.infer<typeof ConfigSchema>;

export const truthy = (v: string | undefined) => v === 'true' || v === '1';

/**
 * `build(config)` made once per configuration object, i.e. once per process, where the web side and the worker
 * must share it (the auth secret's draw, the worker's mailers); tests start apps with configurations of their own.
 */
export function oncePerConfig<T>(build: (config: Config) => T): (config: Config) => T {
  const built = new WeakMap<Config, T>();
  return (config) => {
    if (!built.has(config)) built.set(config, build(config));
    return built.get(config)!;
  };
}

/** The address this service is reached at: PUBLIC_URL, else this machine's port (what links and callback URLs are built on). */
export const publicBaseUrl = (c: Pick<Config, 'PUBLIC_URL' | 'PORT'>) => (c.PUBLIC_URL ?? `http://localhost:${c.PORT}`).replace(/\/+$/, '');

/**
 * DESIGN decision 7, as amended by issue 20: http://localhost webhooks are on by default with the embedded
 * database (a local install, whatever NODE_ENV) and off with DATABASE_URL (a shared deployment), unless set.
 */
export const allowLocalhostWebhooks = (c: Config) =>
  c.WEBHOOKS_ALLOW_LOCALHOST ? truthy(c.WEBHOOKS_ALLOW_LOCALHOST) : !c.DATABASE_URL;

/** Reads and validates the environment; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
