import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogWorld } from './helpers/catalog-world';
import { startFaultyPharmacy } from './helpers/faulty-pharmacy';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { startReferencePharmacy } from './helpers/reference-pharmacy';
import { waitFor } from './helpers/webhooks';

/*
 * Issue 54, item 5: POST /v1/pharmacies/{id}/verify runs the protocol checks from the service (its worker), under the
 * URL rules of DESIGN decision 7, and GET …/verify answers the last run. The run's test order names the service as
 * its callbackUrl: PUBLIC_URL here is a forwarder started before the app, since the app's own port is known only
 * once it listens.
 */

let app: TestApp;
let clinic: Clinic;
let forwarder: http.Server;
let target = '';
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  forwarder = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text());
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', PUBLIC_URL: `http://localhost:${(forwarder.address() as AddressInfo).port}` });
  target = app.baseUrl;
  clinic = await createTenantWithKeys(app, 'Verifier');
});
afterAll(async () => {
  for (const close of closers) await close();
  await app?.close();
  await new Promise<void>((resolve) => forwarder?.close(() => resolve()));
});

/** A live http pharmacy connection served by the reference pharmacy (or a faulty proxy in front of it). */
async function connected(name: string, via?: (url: string, secret: string) => Promise<{ url: string; close(): Promise<void> }>) {
  const placeholder = await catalogWorld(app, clinic.liveKey).pharmacy(name, ['CA'], { baseUrl: 'http://localhost:9', timeoutMs: 2000 }, { adapter: 'http', status: 'disabled' });
  const reference = await startReferencePharmacy(placeholder.secret);
  closers.push(reference.close);
  let url = reference.url;
  if (via) {
    const proxy = await via(reference.url, placeholder.secret);
    closers.push(proxy.close);
    url = proxy.url;
  }
  const res = await app.request('PATCH', `/v1/pharmacies/${placeholder.id}`, { key: clinic.liveKey, body: { settings: { baseUrl: url, timeoutMs: 2000 } } });
  expect(res.status).toBe(200);
  return placeholder.id;
}

const verify = (id: string, key = clinic.liveKey) => app.request('POST', `/v1/pharmacies/${id}/verify`, { key, body: {} });
const lastRun = (id: string, key = clinic.liveKey) => app.request('GET', `/v1/pharmacies/${id}/verify`, { key });
const finished = (id: string) =>
  waitFor(
    async () => {
      const run = (await lastRun(id)).body;
      return run && run.status !== 'running' ? run : null;
    },
    { timeoutMs: 60_000, what: 'the verification run to finish' },
  );

describe('POST /v1/pharmacies/{id}/verify', () => {
  it('runs every check from the service against the reference pharmacy: all pass, and GET answers the run', async () => {
    const id = await connected('Reference');
    expect((await lastRun(id)).body).toBeNull();
    const started = await verify(id);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ object: 'pharmacy_verification', livemode: true, pharmacyConnectionId: id, status: 'running', checks: [], finishedAt: null });
    expect(started.body.id).toMatch(/^pvr_/);
    const run = await finished(id);
    expect(run.checks.filter((c: { passed: boolean }) => !c.passed)).toEqual([]);
    expect(run).toMatchObject({ id: started.body.id, status: 'passed', requestedBy: expect.stringMatching(/^key_/) });
    expect(run.checks).toHaveLength(11);
    expect(run.callbacksReceived).toBeGreaterThanOrEqual(1);
    // The run's callback path takes nothing once it has finished.
    expect((await app.request('POST', `/v1/pharmacy-protocol/check-callbacks/${run.id}`, { rawBody: '{}', headers: { 'content-type': 'application/json' } })).status).toBe(404);
  });

  it('a pharmacy whose callbacks are unsigned fails, naming callback-signed', async () => {
    const id = await connected('Unsigned callbacks', (url, secret) => startFaultyPharmacy(url, secret, 'unsigned-callback'));
    expect((await verify(id)).status).toBe(201);
    const run = await finished(id);
    expect(run.status).toBe('failed');
    expect(run.checks.filter((c: { passed: boolean }) => !c.passed).map((c: { name: string }) => c.name)).toEqual(['callback-signed']);
    expect(run.checks.find((c: { name: string }) => c.name === 'callback-signed').seen).toMatch(/not signed/);
  });

  it('obeys the URL rules at run time: a base URL on a private address is never called', async () => {
    const id = await connected('Moved inside');
    // As if the row had been changed behind the API's back: only the run's own check stands in the way.
    await app.services.database.db.execute(sql`update pharmacy_connections set settings = jsonb_set(settings, '{baseUrl}', '"https://10.0.0.7:4443"') where id = ${id}`);
    expect((await verify(id)).status).toBe(201);
    const run = await finished(id);
    expect(run.status).toBe('failed');
    expect(run.baseUrl).toBe('https://10.0.0.7:4443');
    expect(run.checks[0]).toMatchObject({ name: 'catalog-feed', passed: false, seen: expect.stringMatching(/private, loopback/) });
  });
});

describe('bad input writes nothing', () => {
  it('a simulated pharmacy is a 400; another tenant’s or mode’s is a 404; a key without pharmacies.manage a 403', async () => {
    const simulated = await catalogWorld(app, clinic.sandboxKey).pharmacy('Simulated', ['CA']);
    const live = await connected('Mine');
    const other = await createTenantWithKeys(app, 'Stranger');
    const restricted = await app.request('POST', '/v1/developer/keys', { key: clinic.liveKey, body: { name: 'Catalog only', keyType: 'restricted', scopes: ['catalog.manage'] } });
    const before = { runs: await countRows(app, 'pharmacy_verifications'), jobs: await countRows(app, 'jobs') };

    expectEnvelope(await verify(simulated.id, clinic.sandboxKey), 400, 'validation_error', 'verify_requires_http');
    expectEnvelope(await verify(live, other.liveKey), 404, 'not_found');
    expectEnvelope(await verify(live, clinic.sandboxKey), 404, 'not_found');
    expectEnvelope(await lastRun(live, other.liveKey), 404, 'not_found');
    expectEnvelope(await verify(live, restricted.body.key), 403, 'permission_error');
    expectEnvelope(await verify('phc_nope'), 404, 'not_found');
    expectEnvelope(await app.request('POST', '/v1/pharmacy-protocol/check-callbacks/pvr_unknown', { rawBody: '{}', headers: { 'content-type': 'application/json' } }), 404, 'not_found');

    expect(await countRows(app, 'pharmacy_verifications')).toBe(before.runs);
    expect(await countRows(app, 'jobs')).toBe(before.jobs);
  });
});
