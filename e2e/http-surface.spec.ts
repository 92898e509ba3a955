import http from 'node:http';
import { expect, test } from '@playwright/test';
import { rawRequest } from '../tests/helpers/raw-http';
import { base } from './helpers';

/*
 * Issue 49 against the real server, Next.js and next-auth loaded (tests/http-methods.test.ts and
 * tests/trust-proxy.test.ts cover the same over a stand-in for the pages, on both databases).
 * Item 1: every method on every class of path is answered without a 5xx (TRACE on a page or /api/trpc answered
 * 500, as did `OPTIONS *`). Item 8: behind a trusted proxy (the server runs with TRUST_PROXY=loopback), a
 * forwarded `X-Forwarded-Proto: https` makes the console's cookies Secure and pins the page to https.
 */

test('every method on every class of path is answered without a 5xx, with a request id', async () => {
  // No such key: each path still goes the whole way through its router to the lookup.
  const embedKey = 'emb_00000000000000000000000000';
  const paths = ['/v1/orders', '/v1/openapi.json', `/v1/public/flows/${embedKey}`, '/api/trpc/orders.list', '/healthz', '/readyz', '/metrics'];
  const pages = ['/', '/login', '/console', `/f/${embedKey}`, `/p/${embedKey}`, '/embed/flow.js', '/embed/demo', '/embed/frame', '/_next/static/chunks/x.js', '/api/auth/session', '/api/auth/csrf', '/no-such-page'];
  const refused: string[] = [];
  for (const path of [...paths, ...pages]) {
    for (const method of [...http.METHODS, 'get', 'FOO']) {
      const res = await rawRequest(base(), method, path);
      const bad = (res.status >= 500 && res.status !== 501) || !res.headers['x-request-id'] || (res.status === 405 && !res.headers.allow);
      if (bad) refused.push(`${method} ${path} → ${res.status}`);
    }
  }
  expect(refused).toEqual([]);
  expect((await rawRequest(base(), 'TRACE', '/console')).status).toBe(405);
  expect((await rawRequest(base(), 'TRACE', '/api/trpc/orders.list')).status).toBe(405);
  expect((await rawRequest(base(), 'OPTIONS', '*')).status).toBe(204);
});

test('a trusted proxy saying https makes the console cookies Secure; without it they are not', async () => {
  const plain = await rawRequest(base(), 'GET', '/api/auth/csrf');
  const plainCookie = (plain.headers['set-cookie'] ?? '').split('\n').find((c) => c.includes('csrf-token=')) ?? '';
  expect(plainCookie).toMatch(/^next-auth\.csrf-token=/);
  expect(plainCookie).not.toMatch(/;\s*Secure/i);
  expect(plain.headers['strict-transport-security']).toBeUndefined();

  const forwarded = await rawRequest(base(), 'GET', '/api/auth/csrf', { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.20' });
  const secureCookie = (forwarded.headers['set-cookie'] ?? '').split('\n').find((c) => c.includes('csrf-token=')) ?? '';
  expect(secureCookie).toMatch(/^__Host-next-auth\.csrf-token=/);
  expect(secureCookie).toMatch(/;\s*Secure/i);
  expect(forwarded.headers['strict-transport-security']).toMatch(/max-age=\d+/);
});
