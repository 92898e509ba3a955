import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_STREAM_PATH } from '@/server/http/event-stream';
import { startMetricsListener } from '@/server/lib/metrics-scrape';
import type { Config } from '@/server/lib/config';
import { createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from '../helpers/harness';

/*
 * Issue 34 item 4: malformed percent-encodings in a path or a query never reach a 5xx. Every /v1 operation of
 * the served OpenAPI document is called with a tenant's key, once with each malformed path parameter and once
 * with malformed query values on well-formed ids; the page routes are fuzzed the same way against the built
 * console in the browser suite (e2e/malformed-urls.spec.ts), since this harness serves no Next.js pages.
 */

// A lone %, a % without two hex digits, a truncated escape, bytes that are not UTF-8 (overlong, lone continuation).
const BAD = ['%', '%zz', 'a%2', '%E0%A4%A', '%C0%AF', '%80', '%ff%fe'];
const BAD_QUERY = '?%zz=1&limit=%zz&cursor=%ff&status=%E0%A4%A&sandbox=%&type=%C0%AF';

let app: TestApp;
let a: Clinic;
let operations: { method: string; path: string }[];

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app);
  const doc = (await app.request('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
});
afterAll(async () => app?.close());

async function call(method: string, path: string) {
  const res = await app.request(method, path, { key: a.sandboxKey, body: method === 'GET' || method === 'DELETE' ? undefined : {}, headers: { origin: 'https://clinic.example' } });
  return { ...res, label: `${method} ${path}` };
}

describe('malformed percent-encodings', () => {
  it('in a path parameter of any /v1 operation: a 4xx envelope with a request id, never a 5xx', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const op of operations) {
      const params = op.path.match(/\{[^}]+\}/g) ?? [];
      const variants = params.length ? BAD.map((bad) => op.path.replace(/\{[^}]+\}/g, bad)) : [`${op.path}${BAD[1]}`];
      for (const variant of variants) {
        const res = await call(op.method, `/v1${variant}`);
        // FHIR operations answer errors as an OperationOutcome (DESIGN decision 42), every other the envelope.
        const answered = op.path.startsWith('/fhir/') ? res.body?.resourceType === 'OperationOutcome' : res.body?.error;
        if (res.status >= 500 || !res.headers.get('x-request-id') || !answered) failures.push(`${res.label} → ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('in the query of any /v1 operation: never a 5xx', async () => {
    const failures: string[] = [];
    // The event stream answers a well-formed request with an endless stream; its query is judged by its own tests.
    for (const op of operations.filter((o) => o.path !== EVENT_STREAM_PATH)) {
      const res = await call(op.method, `/v1${op.path.replace(/\{[^}]+\}/g, 'x_1')}${BAD_QUERY}`);
      if (res.status >= 500) failures.push(`${res.label} → ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('in any other path: 400 malformed_url, as an envelope', async () => {
    for (const path of ['/%zz', '/f/%zz', '/i/%zz', '/embed/%zz', '/login%zz', '/v1/%zz', '/api/trpc/%zz', '/healthz%zz']) {
      const res = await app.request('GET', path);
      expectEnvelope(res, 400, 'validation_error', 'malformed_url');
    }
  });

  // fetch would normalise these targets, so they go over a socket as sent. Thrown from the request listener, a
  // target the URL parser refuses (a protocol-relative `//` without a host) stopped the whole process.
  it('a target the URL parser refuses: 400 malformed_url, and the server keeps serving', async () => {
    for (const target of ['//', '///', '//:0/', '//[::1/v1/developer/keys']) {
      const answer = await rawGet(target);
      expect(answer.split('\r\n')[0], target).toBe('HTTP/1.1 400 Bad Request');
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; request_id: string } };
      expect(body.error.code).toBe('malformed_url');
      expect(body.error.request_id).toMatch(/^req_/);
    }
    expect((await app.request('GET', '/v1/developer/keys', { key: a.sandboxKey })).status).toBe(200);
  });

  it('on the metrics listener too: 404, and it keeps serving', async () => {
    const port = await freePort();
    const server = startMetricsListener({ METRICS_PORT: port, METRICS_HOST: '127.0.0.1' } as Config, async () => ({ body: 'up 1\n', contentType: 'text/plain' }))!;
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      expect((await rawGet('//', port)).split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
      expect(await rawGet('/metrics', port)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*up 1\n$/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** One GET of `target` exactly as written, on a connection of its own; the whole answer as text. */
function rawGet(target: string, port = Number(new URL(app.baseUrl).port)): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
