import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { openStream } from './helpers/sse';
import { waitFor } from './helpers/webhooks';
import { get, startServerProcess, untilListening, type ServerProcess } from './helpers/server-process';

/**
 * Issue 37, item 3: on SIGTERM a web process fails /readyz first, ends event streams with a retry hint, stops
 * accepting, lets every request it accepted finish, stops its worker and exits 0. The requests in flight are
 * POSTs whose bodies the test holds back until the listener is closed: they cannot finish before the drain.
 */
const OPS = 'ops_shutdown_test_key_0123456789';
const TOKEN = 'metrics-token-0123456789abcdef';
const SLOW = 5;
let server: ServerProcess | undefined;
afterAll(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});

async function ops<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(`${server!.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${OPS}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** A POST whose body goes out in two halves: the second only when `finish()` is called. */
function heldPost(path: string, body: unknown) {
  const raw = Buffer.from(JSON.stringify(body));
  const half = Math.floor(raw.length / 2);
  const req = http.request(`${server!.baseUrl}${path}`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${OPS}`, 'content-type': 'application/json', 'content-length': String(raw.length) },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  // Awaited only at the end: a connection the server cuts early fails that await with its reason, not as an
  // unhandled rejection while the test waits on something else.
  answered.catch(() => undefined);
  req.write(raw.subarray(0, half));
  return { answered, finish: () => req.end(raw.subarray(half)) };
}

const inFlight = async () => {
  const text = (await get(server!.baseUrl, '/metrics', { authorization: `Bearer ${TOKEN}` })).body;
  return Number(/^fr_http_requests_in_flight (\d+)/m.exec(text)?.[1] ?? 0);
};

describe('SIGTERM on a web process', () => {
  it('drains: readiness fails first, streams end with a retry hint, accepted requests all finish, exit 0', async () => {
    server = await startServerProcess({
      DATABASE_URL: undefined,
      PGLITE_DATA_DIR: 'memory://',
      OPS_BOOTSTRAP_KEY: OPS,
      METRICS_TOKEN: TOKEN,
      RUN_WORKER: 'true',
      // The listener stays open this long after /readyz turns 503 (the balancer's time to notice); the test
      // waits for the 503 and for the refusal of new connections, never for a fixed time.
      SHUTDOWN_DELAY_MS: '5000',
      SHUTDOWN_DRAIN_MS: '120000',
    });
    await untilListening(server);
    const tenant = await ops<{ id: string }>('/v1/ops/tenants', { name: 'Drain' });
    const { key } = await ops<{ key: string }>(`/v1/developer/keys/ops/tenants/${tenant.id}`, { name: 'drain', mode: 'live' });
    const stream = await openStream(`${server.baseUrl}/v1/developer/events/stream`, key);
    await stream.waitFor((m) => m.some((x) => x.comment === 'connected'), { what: 'the stream to connect' });

    const held = Array.from({ length: SLOW }, (_, i) => heldPost('/v1/ops/tenants', { name: `Held ${i}` }));
    // Accepted: the server is in their handlers (reading the bodies); + the stream + the scrape itself.
    await waitFor(async () => (await inFlight()) >= SLOW + 2, { what: 'the held requests to be in flight' });

    server.child.kill('SIGTERM');
    const ready = await waitFor(async () => {
      const r = await get(server!.baseUrl, '/readyz');
      return r.status === 503 ? r : null;
    }, { what: '/readyz to answer 503' });
    expect(JSON.parse(ready.body)).toEqual({ status: 'draining' });
    await stream.waitFor((m) => m.some((x) => x.comment?.includes('shutting down')), { what: 'the stream to end with the shutdown notice' });
    await stream.close();

    // The listener closes once the delay is over: a new connection is refused while the held requests wait.
    await waitFor(async () => (await get(server!.baseUrl, '/healthz').then(() => false, (err: NodeJS.ErrnoException) => err.code === 'ECONNREFUSED')), {
      what: 'new connections to be refused',
    });
    for (const h of held) h.finish();
    const answers = await Promise.all(held.map((h) => h.answered));
    expect(answers.map((a) => a.status)).toEqual(Array(SLOW).fill(201));
    expect(answers.map((a) => JSON.parse(a.body).name)).toEqual(Array.from({ length: SLOW }, (_, i) => `Held ${i}`));
    expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
  }, 180_000);
});
