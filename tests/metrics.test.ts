import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '@/server/lib/metrics';
import { createRateLimiter } from '@/server/lib/rate-limit';
import { ordersWorld } from './helpers/orders-world';
import { startTestApp, type TestApp } from './helpers/harness';

/**
 * Issue 37, item 4: GET /metrics in Prometheus's text format, not public (a bearer METRICS_TOKEN on the
 * service's port), with requests by route template and status, dispatches, rate-limit refusals, the job
 * queue, and process metrics; and no PHI, id or key in any label, whatever the requests carried.
 */
const TOKEN = 'metrics-token-0123456789abcdef';
let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;
let orderId: string;

beforeAll(async () => {
  app = await startTestApp({ METRICS_TOKEN: TOKEN }, { observed: true });
  w = await ordersWorld(app, 'Metrics');
  const created = await w.create();
  expect(created.status, created.text).toBe(201);
  orderId = created.body.id;
  const approved = await w.approve(orderId);
  expect(approved.status, approved.text).toBe(201);
  for (const id of Object.values(w.patients)) expect((await app.request('GET', `/v1/patients/${id}`, { key: w.key })).status).toBe(200);
  expect((await app.request('GET', '/v1/patients/pat_00000000000000000000000000', { key: w.key })).status).toBe(404);
  expect((await app.request('GET', '/v1/no/such/route/Plantedname', { key: w.key })).status).toBe(404);
  // A method the path does not take: labelled with the path's template, which the app matched once for both.
  expect((await app.request('DELETE', `/v1/patients/${Object.values(w.patients)[0]}`, { key: w.key })).status).toBe(405);
  // The app's limits are too high to meet (setup makes many calls); a limiter of one a second counts into the
  // same process-wide registry that the scrape reads.
  const tight = createRateLimiter({ livePerSecond: 1, sandboxPerSecond: 1 });
  const decisions = await Promise.all(Array.from({ length: 4 }, () => tight.consume('metrics-test', true)));
  expect(decisions.some((d) => !d.allowed)).toBe(true);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

const scrape = (headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) => fetch(`${app.baseUrl}/metrics`, { headers });

describe('GET /metrics', () => {
  it('is refused without the token, and answers Prometheus text with it', async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401);
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain('# TYPE fr_http_requests_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts requests by route template and status, dispatches, refusals and the queue', async () => {
    const text = await (await scrape()).text();
    expect(text).toMatch(/fr_http_requests_total\{method="GET",route="\/v1\/patients\/\{id\}",status="200"\} 2/);
    expect(text).toMatch(/fr_http_requests_total\{method="GET",route="\/v1\/patients\/\{id\}",status="404"\} 1/);
    expect(text).toMatch(/fr_http_requests_total\{method="POST",route="\/v1\/orders\/\{id\}\/approve",status="201"\} 1/);
    expect(text).toMatch(/fr_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
    expect(text).toMatch(/fr_http_requests_total\{method="DELETE",route="\/v1\/patients\/\{id\}",status="405"\} 1/);
    expect(text).toMatch(/fr_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/v1\/orders",status="201"\} \d+/);
    expect(text).toMatch(/fr_dispatches_total\{path="inline",outcome="recorded"\} [1-9]/);
    expect(text).toMatch(/fr_rate_limit_refusals_total\{limiter="api",mode="live"\} [1-9]/);
    expect(text).toMatch(/fr_jobs_probe_ok 1/);
    expect(text).toMatch(/fr_jobs_pending\{kind="order\.[a-z-]+",due="(true|false)"\} \d+/);
    expect(text).toContain('# TYPE fr_webhook_delivery_attempts_total counter');
    expect(text).toContain('# TYPE fr_db_pool_connections gauge');
  });

  it('gives overlapping scrapes the same request counts, each equal to the duration histogram\'s count', async () => {
    // In process: three collections of the one registry interleave at every await (HTTP scrapes seldom would).
    const texts = await Promise.all(Array.from({ length: 3 }, () => metrics().registry.metrics()));
    const count = (text: string, metric: string) => Number(new RegExp(`^${metric}\\{method="GET",route="/v1/patients/\\{id\\}",status="200"\\} (\\d+)$`, 'm').exec(text)?.[1]);
    for (const text of texts) {
      expect(count(text, 'fr_http_requests_total')).toBe(2);
      expect(count(text, 'fr_http_request_duration_seconds_count')).toBe(2);
    }
  });

  it('carries no PHI, id or key in any label', async () => {
    const text = await (await scrape()).text();
    const secrets = [w.tenantId, w.key, w.liveKey, orderId, ...Object.values(w.patients), 'Plantedname', 'plantedmail', 'Quinn', '1971-07-17', '9 Elm St'];
    for (const s of secrets) expect(text, `the scrape holds ${s}`).not.toContain(s);
    const labelValues = [...text.matchAll(/="([^"]*)"/g)].map((m) => m[1]);
    expect(labelValues.length).toBeGreaterThan(10);
    // The service's ids (pat_…, ord_…, ten_…) and anything with an @ never appear as a label value.
    expect(labelValues.filter((v) => /[a-z]{2,5}_[0-9a-z]{26}/.test(v) || v.includes('@'))).toEqual([]);
  });
});
