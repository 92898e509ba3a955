import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fallback } from '@/server/http/app';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';
import { rawRequest, type RawResponse } from './helpers/raw-http';

/*
 * Issue 49, item 1: every method on every class of path is answered 2xx, 3xx, 4xx (405 with Allow) or 501,
 * never 5xx, with the envelope and X-Request-Id on the API paths. TRACE reached Next.js and tRPC's adapter and
 * answered 500; `OPTIONS *` answered 500; CONNECT closed the connection unanswered. The requests are written by
 * hand: undici refuses TRACE, CONNECT, lowercase and unknown tokens. The stand-in for Next.js records the
 * methods that reach it: only the ones its paths serve may.
 */

const METRICS_TOKEN = 'metrics-token-for-methods-0123';
const reachedPages: string[] = [];
const standIn: () => Fallback = () => (req, res) => {
  reachedPages.push(`${req.method} ${req.url}`);
  res.setHeader('Content-Type', 'text/html');
  res.end('<!doctype html><title>page</title>');
};

let app: TestApp;
let embedKey: string;
beforeAll(async () => {
  app = await startTestApp({ METRICS_TOKEN }, { fallback: standIn, observed: true });
  const clinic = await createTenantWithKeys(app, 'Methods Clinic');
  embedKey = (await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [] } })).body.id;
});
afterAll(async () => app?.close());

// Every token Node's parser takes, and a few it refuses.
const METHODS = [...http.METHODS, 'get', 'Post', 'FOO', 'BREW'];
const PATHS = () => [
  { path: '/v1/orders', api: true },
  { path: '/v1/openapi.json', api: true },
  { path: `/v1/public/flows/${embedKey}`, api: true },
  { path: '/api/trpc/orders.list', api: true },
  { path: '/healthz', api: true },
  { path: '/readyz', api: true },
  { path: '/metrics', api: true },
  { path: '/', api: false },
  { path: '/login', api: false },
  { path: '/console', api: false },
  { path: `/f/${embedKey}`, api: false },
  { path: `/p/${embedKey}`, api: false },
  { path: `/p/${embedKey}/actions/request-code`, api: true },
  { path: '/embed/flow.js', api: false },
  { path: '/embed/demo', api: false },
  { path: '/embed/frame', api: false },
  { path: '/_next/static/chunks/main.js', api: false },
  { path: '/api/auth/session', api: false },
];

function expectAcceptable(res: RawResponse, label: string, api: boolean) {
  expect(res.status >= 500 && res.status !== 501, `${label}: ${res.status} ${res.body}`).toBe(false);
  expect(res.headers['x-request-id'] ?? '', `${label}: ${res.status} ${JSON.stringify(res.headers)}`).toMatch(/^req_/);
  if (res.status === 405) expect(res.headers.allow, `${label}: 405 without Allow`).toBeTruthy();
  // Node writes no body for HEAD, and 204 and 304 carry none. tRPC's own framing carries the same fields under `data`.
  if (api && res.status >= 400 && res.body) {
    const error = JSON.parse(res.body).error;
    expect(error.request_id ?? error.data?.request_id, label).toBe(res.headers['x-request-id']);
    expect(typeof (error.data?.code ?? error.code), label).toBe('string');
  }
}

describe('every method on every class of path (item 1)', () => {
  it('is answered 2xx, 3xx, 4xx (405 with Allow) or 501, never another 5xx, with a request id', async () => {
    for (const { path, api } of PATHS()) {
      for (const method of METHODS) {
        const headers: Record<string, string> = path === '/metrics' ? { Authorization: `Bearer ${METRICS_TOKEN}` } : {};
        expectAcceptable(await rawRequest(app.baseUrl, method, path, headers), `${method} ${path}`, api);
      }
    }
  });

  it('lets only the methods a page serves reach Next.js', () => {
    const methods = new Set(reachedPages.map((r) => r.split(' ')[0]));
    expect([...methods].sort()).toEqual(['GET', 'HEAD', 'POST']);
    // POST only where a page takes it: next-auth's routes. The patient portal's writes are the app's own
    // (`/p/{embedKey}/actions/{name}`, server/http/portal-actions.ts), and its pages take GET and HEAD.
    expect(reachedPages.filter((r) => r.startsWith('POST ')).every((r) => r.startsWith('POST /api/auth/'))).toBe(true);
    expect(reachedPages).not.toContain(`POST /p/${embedKey}`);
  });

  it('answers TRACE with 405 and Allow on pages, tRPC and /v1', async () => {
    const page = await rawRequest(app.baseUrl, 'TRACE', '/console');
    expect(page.status).toBe(405);
    expect(page.headers.allow).toBe('GET, HEAD, OPTIONS');
    const trpc = await rawRequest(app.baseUrl, 'TRACE', '/api/trpc/orders.list');
    expect(trpc.status).toBe(405);
    expect(trpc.headers.allow).toBe('GET, POST, OPTIONS');
    expect(JSON.parse(trpc.body).error.code).toBe('method_not_allowed');
    const v1 = await rawRequest(app.baseUrl, 'TRACE', '/v1/orders');
    expect(v1.status).toBe(405);
    expect(v1.headers.allow).toContain('GET');
  });

  it('answers OPTIONS on a page with 204 and what it serves', async () => {
    const res = await rawRequest(app.baseUrl, 'OPTIONS', '/login');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('answers a method the parser refuses (lowercase, unknown) with 501 and the envelope', async () => {
    for (const method of ['get', 'FOO']) {
      const res = await rawRequest(app.baseUrl, method, '/v1/orders');
      expect(res.status, method).toBe(501);
      const error = JSON.parse(res.body).error;
      expect(error.code).toBe('method_not_implemented');
      expect(error.request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('answers CONNECT: 405 on a path, 501 for a tunnel (authority form)', async () => {
    const onPath = await rawRequest(app.baseUrl, 'CONNECT', '/v1/orders');
    expect(onPath.status).toBe(405);
    const tunnel = await rawRequest(app.baseUrl, 'CONNECT', 'example.com:443');
    expect(tunnel.status).toBe(501);
    expect(JSON.parse(tunnel.body).error.code).toBe('method_not_implemented');
  });

  it('answers the asterisk form: OPTIONS * with 204 and Allow, any other method with 400', async () => {
    const options = await rawRequest(app.baseUrl, 'OPTIONS', '*');
    expect(options.status).toBe(204);
    expect(options.headers.allow).toContain('GET');
    expect(options.headers['x-request-id']).toMatch(/^req_/);
    const get = await rawRequest(app.baseUrl, 'GET', '*');
    expect(get.status).toBe(400);
    expect(JSON.parse(get.body).error.code).toBe('malformed_url');
  });

  it('hands an absolute-form target to the page as the path it names', async () => {
    reachedPages.length = 0;
    const res = await rawRequest(app.baseUrl, 'GET', `${app.baseUrl}/login?next=%2Fconsole`);
    expect(res.status).toBe(200);
    expect(reachedPages).toEqual(['GET /login?next=%2Fconsole']);
  });
});
