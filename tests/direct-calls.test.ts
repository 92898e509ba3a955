import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@/server/http/app';
import { CONTACT, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/*
 * /v1 operations with a JSON body are called straight through their procedures (server/http/procedure-call.ts,
 * issue 35) instead of through trpc-to-openapi's handler. The same services behind a second server that sends
 * every operation through the library answer each request here; the two answers must be the same on the
 * wire: status, headers (CORS, rate limits, Idempotent-Replayed, Allow …) and body, ids aside.
 */

const ORIGIN = 'https://clinic.example';
let app: TestApp;
let viaLibrary: http.Server;
let libraryUrl: string;
let clinic: Clinic;
let embedKey: string;

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000', MAX_BODY_BYTES: '4096' });
  viaLibrary = http.createServer(createApp(app.services, undefined, { directCalls: false }));
  await new Promise<void>((resolve) => viaLibrary.listen(0, '127.0.0.1', resolve));
  libraryUrl = `http://127.0.0.1:${(viaLibrary.address() as AddressInfo).port}`;
  clinic = await createTenantWithKeys(app, 'Direct calls');
  const q = await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument('weight'));
  embedKey = (await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] })).embedKey;
});
afterAll(async () => {
  await new Promise<void>((resolve) => viaLibrary?.close(() => resolve()));
  await app?.close();
});

interface Sent {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}
const IGNORED = new Set(['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset', 'content-length', 'etag', 'keep-alive', 'connection']);
/**
 * Ids, request ids and times differ between two answers by design; everything else must not. Signatures go first:
 * base64url may hold what looks like an id (`abc_` and ten letters), and masking that would cut the JWS in two.
 */
const masked = (text: string) =>
  text
    .replace(/eyJ[\w-]+\.[\w-]+\.[\w-]+/g, '<jws>')
    .replace(/\b([a-z]{2,5})_[0-9A-Za-z]{10,}\b/g, '$1_*')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
    .replace(/"reference":"[^"]*"/g, '"reference":"*"');

async function send(base: string, r: Sent) {
  const res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
  const headers = Object.fromEntries([...res.headers].filter(([k]) => !IGNORED.has(k)));
  const text = masked(await res.text());
  // Parsed where it is JSON: key order is no part of the contract (a definition checked for the first time comes back in schema order).
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an empty 204)
  }
  return { status: res.status, headers, body, requestId: res.headers.get('x-request-id') };
}

/** The request sent to both servers (the direct one first); returns the direct answer after comparing. */
async function same(r: Sent) {
  const direct = await send(app.baseUrl, r);
  const library = await send(libraryUrl, r);
  expect({ ...direct, requestId: undefined }, `${r.method} ${r.path}`).toEqual({ ...library, requestId: undefined });
  expect(direct.requestId).toMatch(/^req_/);
  return direct;
}

const json = (body: unknown, extra: Record<string, string> = {}) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: ORIGIN, ...extra } });
const sessionPath = () => `/v1/public/flows/${embedKey}/sessions`;

describe('a JSON-body operation answers the same called directly as through trpc-to-openapi', () => {
  it('public flows: a whole run, replays and refusals', async () => {
    const started = await Promise.all([app.baseUrl, libraryUrl].map((base) => send(base, { method: 'POST', path: sessionPath(), ...json({}) })));
    expect(started[0]).toEqual({ ...started[1], requestId: started[0].requestId });
    expect(started[0].status).toBe(201);
    // Each server's own session from here on: a saved step changes what the next request sees.
    const ids = await Promise.all([app.baseUrl, libraryUrl].map(async (base) => ((await (await fetch(base + sessionPath(), { method: 'POST', ...json({}) })).json()) as { sessionId: string }).sessionId));
    const both = async (r: (id: string) => Sent) => {
      const [direct, library] = await Promise.all(ids.map((id, i) => send(i === 0 ? app.baseUrl : libraryUrl, r(id))));
      expect({ ...direct, requestId: undefined }, r(ids[0]).path).toEqual({ ...library, requestId: undefined });
      return direct;
    };
    const step = (stepId: string, answers: unknown, extra?: Record<string, string>) => (id: string) => ({ method: 'POST', path: `${sessionPath()}/${id}/steps`, ...json({ stepId, answers }, extra) });
    for (const [stepId, answers] of weightRunAnswers()) expect((await both(step(stepId, answers))).status).toBe(200);
    // Refusals of a step: unknown step, an answer of the wrong type, a number sent as a string (no coercion of a body).
    expect((await both(step('nope', {}))).status).toBe(400);
    expect((await both(step('body', { dob: '1980-04-02', height: 'tall', weight: 84 }))).status).toBe(400);
    expect((await both((id) => ({ method: 'POST', path: `${sessionPath()}/${id}/steps`, ...json({ stepId: 7, answers: {} }) }))).status).toBe(400);
    expect((await both((id) => ({ method: 'POST', path: `${sessionPath()}/${id}/steps`, ...json({ stepId: 'body', answers: {}, colour: 'red' }) }))).status).toBe(400);
    // Submit and its replay under one Idempotency-Key per server.
    const keys = [randomUUID(), randomUUID()];
    const submit = (k: number) => (id: string) => ({ method: 'POST', path: `${sessionPath()}/${id}/submit`, ...json({ patient: { name: CONTACT.name, email: CONTACT.email } }, { 'idempotency-key': keys[ids.indexOf(id)] ?? keys[k] }) });
    expect((await both(submit(0))).status).toBe(200);
    const replay = await both(submit(0));
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // A fresh key per request (the two servers' requests run at once in one tenant).
    const again = (keyed: boolean) => (id: string) => ({ method: 'POST', path: `${sessionPath()}/${id}/submit`, ...json({ patient: { name: CONTACT.name, email: CONTACT.email } }, keyed ? { 'idempotency-key': randomUUID() } : {}) });
    expect((await both(again(false))).status).toBe(400); // the key is required
    expect((await both(again(true))).status).toBe(409); // session_completed
  });

  it('public flows: body, content type, size, route and origin refusals', async () => {
    const unknownSession = `${sessionPath()}/fs_${'0'.repeat(26)}/steps`;
    const cases: Sent[] = [
      { method: 'POST', path: sessionPath(), body: '{"campaign": ', headers: { 'content-type': 'application/json', origin: ORIGIN } },
      { method: 'POST', path: sessionPath(), body: 'campaign=x', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN } },
      { method: 'POST', path: sessionPath(), body: '[1]', headers: { 'content-type': 'application/json', origin: ORIGIN } },
      { method: 'POST', path: sessionPath(), ...json({ campaign: 'x'.repeat(5000) }) },
      { method: 'POST', path: sessionPath(), ...json({ campaign: 'spring sale!' }) },
      { method: 'POST', path: sessionPath(), ...json({ colour: 'red' }) },
      { method: 'POST', path: sessionPath(), ...json({}, { origin: 'https://elsewhere.example' }) },
      { method: 'POST', path: '/v1/public/flows/emb_unknown00000000000000/sessions', ...json({}) },
      { method: 'POST', path: unknownSession, ...json({ stepId: 'body', answers: {} }) },
      { method: 'PUT', path: sessionPath(), ...json({}) },
      { method: 'POST', path: '/v1/public/flows/nope/nope/nope', ...json({}) },
      { method: 'OPTIONS', path: sessionPath(), headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } },
    ];
    const statuses = [];
    for (const r of cases) statuses.push((await same(r)).status);
    expect(statuses).toEqual([400, 415, 400, 413, 400, 400, 403, 404, 404, 405, 404, 204]);
  });

  it('GETs: text-only inputs called directly, the others through the library, the same answers', async () => {
    const auth = { authorization: `Bearer ${clinic.liveKey}` };
    const reads: Sent[] = [
      { method: 'GET', path: '/v1/developer/keys', headers: auth },
      { method: 'GET', path: '/v1/developer/keys?colour=red&colour=blue', headers: auth },
      { method: 'GET', path: '/v1/developer/keys', headers: { authorization: 'Bearer sk_live_nope' } },
      { method: 'GET', path: `/v1/public/flows/${embedKey}`, headers: { origin: ORIGIN } },
      { method: 'GET', path: `/v1/public/flows/${embedKey}`, headers: { origin: 'https://elsewhere.example' } },
      { method: 'GET', path: `/v1/public/flows/${embedKey}/sessions/fs_${'0'.repeat(26)}`, headers: { origin: ORIGIN } },
      { method: 'GET', path: '/v1/orders?limit=2', headers: auth },
      { method: 'GET', path: '/v1/orders?limit=many', headers: auth },
    ];
    const statuses = [];
    for (const r of reads) statuses.push((await same(r)).status);
    expect(statuses).toEqual([200, 200, 401, 200, 403, 404, 200, 400]);
  });

  it('authenticated API: an idempotent create, its replay and its refusals', async () => {
    const auth = { authorization: `Bearer ${clinic.liveKey}`, 'content-type': 'application/json' };
    const first = await same({ method: 'POST', path: '/v1/developer/keys', body: JSON.stringify({}), headers: auth });
    expect(first.status).toBe(400);
    expect((await same({ method: 'POST', path: '/v1/developer/keys', body: JSON.stringify({ name: 'a', mode: 'prod' }), headers: auth })).status).toBe(400);
    expect((await same({ method: 'POST', path: '/v1/developer/keys', body: JSON.stringify({ name: 'a' }), headers: { ...auth, authorization: 'Bearer sk_live_nope' } })).status).toBe(401);
    const revoke = await same({ method: 'DELETE', path: '/v1/developer/keys/key_00000000000000000000000000', body: '{}', headers: auth });
    expect(revoke.status).toBe(404);
  });
});
