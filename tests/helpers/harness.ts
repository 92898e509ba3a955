import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { createPatientPages, createPortalActions } from '@/app/_patient-pages';
import { createApp, type Fallback as PageFallback } from '@/server/http/app';
import { PATIENT_ASSET_PREFIX } from '@/server/http/patient-pages';
import { createServiceServer } from '@/server/http/http-server';
import { observe } from '@/server/http/observe';
import { registerMetricsProbes } from '@/server/jobs/metrics-probes';
import { createServices } from '@/server/http/services';
import { loadConfig } from '@/server/lib/config';
import type { Services } from '@/server/api/context';
import { createWorker, type Worker } from '@/server/jobs/worker';
import { lendPglite } from './pglite-pool';

export const OPS_KEY = 'ops_test_bootstrap_key_0123456789';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

/** Builds the stand-in for Next.js from the app's services. */
export type Fallback = (services: Services) => PageFallback;

export interface TestApp {
  baseUrl: string;
  services: Services;
  /** The scratch PostgreSQL database of this app, for child processes (unset on PGlite). */
  databaseUrl?: string;
  /** The in-process worker, started when the env passes RUN_WORKER=true. */
  worker?: Worker;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL database per app when DATABASE_URL is set, dropped on close: a copy of the run's migrated
 * template (tests/helpers/global-setup.ts). Tests of migrating itself make their own empty database.
 */
export async function createScratchDatabase(adminUrl: string) {
  // The run's id lets the run's global teardown (tests/helpers/global-setup.ts) drop what a file left.
  const name = `fr_test_${process.env.FR_TEST_RUN ?? 'solo'}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = process.env.FR_TEST_PG_TEMPLATE;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Starts the real HTTP handler (without Next.js) on an ephemeral port with its own empty database. A key set
 * to `undefined` in `env` is left unset (to test a default); `embedded` keeps PGlite even in a PostgreSQL run.
 */
export async function startTestApp(env: Record<string, string | undefined> = {}, opts: { embedded?: boolean; observed?: boolean; fallback?: Fallback; patientPagesDir?: string } = {}): Promise<TestApp> {
  const scratch = process.env.DATABASE_URL && !opts.embedded ? await createScratchDatabase(process.env.DATABASE_URL) : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    PGLITE_DATA_DIR: 'memory://',
    OPS_BOOTSTRAP_KEY: OPS_KEY,
    RATE_LIMIT_LIVE: '100000',
    RATE_LIMIT_SANDBOX: '100000',
    LOG_LEVEL: 'silent',
    MAIL_OUTBOX_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fr-mail-')),
    // The suite's webhook receivers listen on localhost, on PostgreSQL too (where the default is off).
    WEBHOOKS_ALLOW_LOCALHOST: 'true',
    // The app runs a worker only when the test asks for one (below); the config says so too, for /readyz.
    RUN_WORKER: 'false',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const services = await createServices(config, { pgliteLease: !config.DATABASE_URL && config.PGLITE_DATA_DIR.startsWith('memory://') ? await lendPglite() : undefined });
  const worker = env.RUN_WORKER === 'true' ? createWorker({ database: services.database, config }) : undefined;
  await worker?.start();
  // `fallback` stands in for Next.js (the pages), where a test needs one.
  // `patientPagesDir`: the patient pages rendered without Next.js, from assets built there (as production does).
  const patientPages = opts.patientPagesDir ? createPatientPages(services, PATIENT_ASSET_PREFIX, opts.patientPagesDir) : undefined;
  const app = createApp(services, opts.fallback?.(services), { worker, patientPages, portalActions: createPortalActions(services) });
  // `observed`: wrapped as every process of the service is (metrics, drain; server/http/observe.ts).
  if (opts.observed) registerMetricsProbes(services.database);
  const server = createServiceServer(opts.observed ? observe(app, config) : app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    services,
    databaseUrl: scratch?.url,
    worker,
    async request(method, path, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
      let body: string | undefined = opts.rawBody;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(baseUrl + path, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Streams (SSE) never end on their own; drop every connection so close does not wait for them.
      server.closeAllConnections();
      await closed;
      try {
        await worker?.stop();
        await services.close();
      } finally {
        await scratch?.drop();
      }
    },
  };
}

/** A tenant with a sandbox and a live secret key, minted through the ops API. */
export async function createTenantWithKeys(app: TestApp, name = 'Clinic') {
  const tenant = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name } });
  if (tenant.status !== 201) throw new Error(`tenant create failed: ${tenant.status} ${tenant.text}`);
  const mint = async (mode: 'sandbox' | 'live') => {
    const r = await app.request('POST', `/v1/developer/keys/ops/tenants/${tenant.body.id}`, { key: OPS_KEY, body: { name: `${mode} key`, mode } });
    if (r.status !== 201) throw new Error(`key mint failed: ${r.status} ${r.text}`);
    return r.body.key as string;
  };
  return { tenantId: tenant.body.id as string, sandboxKey: await mint('sandbox'), liveKey: await mint('live') };
}

export type Clinic = Awaited<ReturnType<typeof createTenantWithKeys>>;

/** A fresh app with two clinics, A and B, each with a sandbox and a live key: the cast of the tenancy tests. */
export async function startWithTwoClinics(env?: Parameters<typeof startTestApp>[0], opts?: Parameters<typeof startTestApp>[1]) {
  const app = await startTestApp(env, opts);
  return { app, a: await createTenantWithKeys(app, 'Clinic A'), b: await createTenantWithKeys(app, 'Clinic B') };
}

export function expectEnvelope(res: ApiResponse, status: number, type: string, code?: string) {
  const rid = res.headers.get('x-request-id');
  const problems: string[] = [];
  if (res.status !== status) problems.push(`status ${res.status} != ${status}`);
  if (res.body?.error?.type !== type) problems.push(`type ${res.body?.error?.type} != ${type}`);
  if (code && res.body?.error?.code !== code) problems.push(`code ${res.body?.error?.code} != ${code}`);
  if (!rid?.startsWith('req_') || res.body?.error?.request_id !== rid) problems.push(`request id mismatch ${rid} / ${res.body?.error?.request_id}`);
  if (typeof res.body?.error?.message !== 'string' || !res.body.error.message) problems.push('missing message');
  if (problems.length) throw new Error(`${problems.join('; ')}\nbody: ${res.text}`);
}

/** Row count of a table, for proving that a rejected request wrote nothing. */
export async function countRows(app: TestApp, table: string): Promise<number> {
  const { sql } = await import('drizzle-orm');
  const res = (await app.services.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as { rows: { n: number }[] };
  return Number(res.rows[0].n);
}

/** Messages the development mailer wrote, oldest first. */
export function readOutbox(app: TestApp): { to: string; subject: string; text: string; link?: string }[] {
  const dir = app.services.config.MAIL_OUTBOX_DIR;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

export const VALID_NPI = '1234567893';

/** Ops creates a user in a tenant and signs them in; returns the session's access token. */
export async function createUserAndLogin(
  app: TestApp,
  tenantId: string,
  user: { email: string; role: string; npi?: string; licensedStates?: string[]; npiVerified?: boolean },
  password = 'correct horse battery staple',
) {
  const made = await app.request('POST', `/v1/ops/tenants/${tenantId}/users`, { key: OPS_KEY, body: { ...user, password } });
  if (made.status !== 201) throw new Error(`user create failed: ${made.status} ${made.text}`);
  const login = await app.request('POST', '/v1/auth/login', { body: { email: user.email, password } });
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`);
  return { id: made.body.id as string, token: login.body.accessToken as string, refreshToken: login.body.refreshToken as string, password };
}

/**
 * Runs `fn` while the app's database handle comes from a second copy of drizzle-orm (its CommonJS build),
 * as in production, where Next.js bundles its own drizzle-orm and the console's actions run on the handle
 * the custom server built with the other copy.
 */
export async function withSecondDrizzleCopy<T>(app: TestApp, fn: () => Promise<T>): Promise<T> {
  const database = app.services.database;
  const own = database.db;
  const driver = createRequire(import.meta.url)(database.kind === 'pglite' ? 'drizzle-orm/pglite' : 'drizzle-orm/node-postgres');
  database.db = driver.drizzle((own as unknown as { $client: unknown }).$client);
  try {
    return await fn();
  } finally {
    database.db = own;
  }
}
