import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@/server/http/app';
import { authOptions } from '@/web/console/auth-options';
import { secureCookies, sessionCookieName } from '@/web/console/jwt';
import { type Clinic, createTenantWithKeys, startTestApp, type TestApp } from '../helpers/harness';
import { openStream } from '../helpers/sse';

// Issue 20, item 8. The console's own pages come from Next.js, which the harness does not start: here the
// custom server serves them through a stand-in for Next.js (its headers are set before Next.js runs);
// e2e/security-headers.spec.ts checks the real pages, rendered and working under the policy.

let app: TestApp;
let a: Clinic;
let https: TestApp;
let h: Clinic;

beforeAll(async () => {
  [app, https] = await Promise.all([startTestApp(), startTestApp({ PUBLIC_URL: 'https://rail.clinic.example' })]);
  [a, h] = await Promise.all([createTenantWithKeys(app), createTenantWithKeys(https)]);
});
afterAll(async () => Promise.all([app?.close(), https?.close()]));

const PATIENT = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  dateOfBirth: '1985-04-12',
  sex: 'female',
  email: 'ada@example.org',
  phone: '(415) 555-0134',
  address: { line1: '1 Market St', city: 'San Francisco', state: 'CA', postalCode: '94105' },
};

function expectBrowserHeaders(headers: Headers) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
}

describe('/v1 responses', () => {
  it('keep every response that can carry PHI out of caches: reads, writes, errors and the event stream', async () => {
    const made = await app.request('POST', '/v1/patients', { key: a.liveKey, body: PATIENT });
    expect(made.status).toBe(201);
    const responses = [
      made,
      await app.request('GET', `/v1/patients/${made.body.id}`, { key: a.liveKey }),
      await app.request('GET', '/v1/patients', { key: a.liveKey }),
      await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: a.liveKey, body: { lastName: 'Byron' } }),
      await app.request('GET', `/v1/patients/${made.body.id}`, { key: a.sandboxKey }), // 404
      await app.request('POST', '/v1/patients', { key: a.liveKey, body: { ...PATIENT, dateOfBirth: 'soon' } }), // 400
      await app.request('GET', '/v1/patients'), // 401
      await app.request('GET', '/v1/no-such-route'),
    ];
    expect(responses.map((r) => r.status)).toEqual([201, 200, 200, 200, 404, 400, 401, 404]);
    for (const res of responses) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expectBrowserHeaders(res.headers);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(res.headers.get('strict-transport-security')).toBeNull(); // PUBLIC_URL is not https here
    }
    const stream = await openStream(`${app.baseUrl}/v1/developer/events/stream`, a.liveKey);
    try {
      expect(stream.res.status).toBe(200);
      expect(stream.res.headers.get('cache-control')).toContain('no-store');
      expectBrowserHeaders(stream.res.headers);
    } finally {
      await stream.close();
    }
  });

  it('let the public OpenAPI document be cached', async () => {
    const doc = await app.request('GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('cache-control')).toBeNull();
    expect(doc.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('pin browsers to https when PUBLIC_URL is https', async () => {
    const res = await https.request('GET', '/v1/patients', { key: h.liveKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('console pages', () => {
  // What Next.js would do for a page: set its own headers and write HTML.
  const fakeNext = (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(`<!doctype html><title>${req.url}</title>`);
  };
  async function page(t: TestApp, path: string) {
    const server = http.createServer(createApp(t.services, fakeNext));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      return await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }

  it('cannot be framed and get the browser headers (the approval queue among them)', async () => {
    for (const path of ['/orders/approvals', '/login', '/patients/pat_x']) {
      const res = await page(app, path);
      expect(res.status).toBe(200);
      expectBrowserHeaders(res.headers);
      const csp = res.headers.get('content-security-policy')!;
      for (const directive of ["frame-ancestors 'none'", "base-uri 'self'", "object-src 'none'", "form-action 'self'"]) expect(csp).toContain(directive);
      // Next.js's inline bootstrap scripts must keep running: no script or default source list here.
      expect(csp).not.toMatch(/script-src|default-src/);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
    const secured = await page(https, '/orders/approvals');
    expect(secured.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('console cookies', () => {
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, NEXTAUTH_URL: process.env.NEXTAUTH_URL };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('are Secure behind https, even when NEXTAUTH_URL was left at http', () => {
    process.env.PUBLIC_URL = 'https://rail.clinic.example';
    process.env.NEXTAUTH_URL = 'http://localhost:3000';
    expect(secureCookies()).toBe(true);
    expect(authOptions.useSecureCookies).toBe(true);
    expect(sessionCookieName()).toBe('__Secure-next-auth.session-token');
  });

  it('stay plain on a plain-http local install, where a Secure cookie would never come back', () => {
    delete process.env.PUBLIC_URL;
    process.env.NEXTAUTH_URL = 'http://localhost:3000';
    expect(authOptions.useSecureCookies).toBe(false);
    expect(sessionCookieName()).toBe('next-auth.session-token');
  });
});
