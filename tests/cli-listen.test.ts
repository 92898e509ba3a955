import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '@/bin/run-cli';
import { listen } from '@/bin/dev/listen';
import { verifyWebhook } from '@/sdk/src/index';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';
import { newId } from '@/server/lib/ids';
import { emit, startReceiver, TEST_TIMEOUT_MS, waitFor, type Receiver } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS * 2 });

let app: TestApp;
let local: Receiver;
let registered: Receiver;
beforeAll(async () => {
  // The worker delivers to the registered endpoint; `listen` forwards what the stream carries.
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50' });
  local = await startReceiver();
  registered = await startReceiver();
});
afterAll(async () => {
  await Promise.all([local?.close(), registered?.close()]);
  await app?.close();
});

/** `npm run cli -- listen …` in this process, printing into `lines` until `stop()`. */
function startListen(args: string[]) {
  const lines: string[] = [];
  const stop = new AbortController();
  const done = runCli(['listen', ...args, '--base-url', app.baseUrl], { ...process.env, LOG_LEVEL: 'silent' }, { print: (l) => void lines.push(l), signal: stop.signal });
  return { lines, done, stop: () => (stop.abort(), done) };
}

describe('npm run cli -- listen', () => {
  it('forwards each event, signed with the printed secret, byte for byte what a registered endpoint receives', async () => {
    const t = await createTenantWithKeys(app, 'Listen');
    const endpoint = await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: `${registered.url}/registered`, events: [] } });
    expect(endpoint.status, endpoint.text).toBe(201);

    const l = startListen(['--api-key', t.sandboxKey, '--forward-to', `${local.url}/webhooks`]);
    await waitFor(() => l.lines.some((x) => x.includes('Connected to the event stream')), { what: 'listen to connect' });
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(l.lines.join('\n'))?.[0];
    expect(secret, l.lines.join('\n')).toBeDefined();
    expect(l.lines.join('\n').match(/whsec_/g)).toHaveLength(1); // printed once

    const made = await runCli(['trigger', 'order.cancelled', '--api-key', t.sandboxKey, '--base-url', app.baseUrl, '--json'], { ...process.env, LOG_LEVEL: 'silent' });
    expect(made.code, made.stdout + made.stderr).toBe(0);
    const { event } = JSON.parse(made.stdout.trim().split('\n').pop()!);
    expect(event).toMatchObject({ type: 'order.cancelled', id: expect.stringMatching(/^evt_/) });

    const forwarded = await waitFor(() => local.received.find((r) => r.headers['webhook-id'] === event.id), { what: 'the forwarded event' });
    const delivered = await waitFor(() => registered.received.find((r) => r.headers['webhook-id'] === event.id), { what: 'the registered delivery' });
    expect(forwarded.path).toBe('/webhooks');
    expect(forwarded.body).toBe(delivered.body);
    expect(forwarded.headers['content-type']).toBe(delivered.headers['content-type']);
    expect(verifyWebhook(forwarded.body, forwarded.headers as Record<string, string>, secret!)).toEqual(event);
    expect(() => verifyWebhook(delivered.body, delivered.headers as Record<string, string>, secret!)).toThrow(); // the endpoint has its own secret

    const line = await waitFor(() => l.lines.find((x) => x.includes(event.id)), { what: 'the delivery line' });
    expect(line).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  order\\.cancelled +${event.id}  --> 200  \\d+ ms$`));
    const stopped = await l.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('Stopped;');
  });

  it('resumes with Last-Event-ID after a drop, missing nothing and repeating nothing; --events filters', async () => {
    const t = await createTenantWithKeys(app, 'Listen resume');
    const sent: (string | null)[] = [];
    let cut = () => {};
    const cuttable = (async (url: string, init: RequestInit) => {
      const conn = new AbortController();
      cut = () => conn.abort();
      sent.push(new Headers(init.headers).get('last-event-id'));
      return fetch(url, { ...init, signal: AbortSignal.any([init.signal!, conn.signal]) });
    }) as typeof fetch;
    const lines: string[] = [];
    const stop = new AbortController();
    const running = listen(
      { apiKey: t.sandboxKey, baseUrl: app.baseUrl, forwardTo: `${local.url}/resume`, events: 'order.*', fetch: cuttable },
      { print: (x) => void lines.push(x), signal: stop.signal, json: true },
    );
    await waitFor(() => lines.some((x) => x.includes('Connected')), { what: 'listen to connect' });
    const cancel = async () => {
      const r = await runCli(['trigger', 'order.cancelled', '--api-key', t.sandboxKey, '--base-url', app.baseUrl, '--json'], { ...process.env, LOG_LEVEL: 'silent' });
      expect(r.code, r.stdout).toBe(0);
      return JSON.parse(r.stdout.trim().split('\n').pop()!).event.id as string;
    };
    const first = await cancel();
    await waitFor(() => local.received.some((r) => r.headers['webhook-id'] === first), { what: 'the first event' });
    // An event listen is not asked for (--events order.*) is passed over.
    const skipped = await emit(app, { tenantId: t.tenantId, livemode: false }, 'intake.submission.created', { submissionId: newId('intakeSubmission'), verdict: 'eligible' });
    cut();
    const second = await cancel(); // written while the connection is down
    await waitFor(() => local.received.some((r) => r.headers['webhook-id'] === second), { what: 'the event sent during the drop' });
    // listen prints its line once the forward is answered, a moment after the receiver has it (the CI of stop 44).
    await waitFor(() => lines.some((x) => x.includes(second)), { what: 'the line of the event sent during the drop' });
    // It resumes after the last event the stream carried: the first, or the skipped one if that arrived before the cut.
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBeNull();
    expect([first, skipped.id]).toContain(sent[1]);
    expect(local.received.some((r) => r.headers['webhook-id'] === skipped.id)).toBe(false);
    const ids = local.received.filter((r) => r.path === '/resume').map((r) => r.headers['webhook-id']);
    expect(ids).toEqual([first, second]);
    const deliveries = lines.map((x) => JSON.parse(x)).filter((x) => x.id);
    expect(deliveries.map((d) => [d.type, d.id, d.status])).toEqual([
      ['order.cancelled', first, 200],
      ['order.cancelled', second, 200],
    ]);
    stop.abort();
    expect((await running).value).toEqual({ stopped: true, forwarded: 2, failed: 0 });
  });

  it('refuses bad flags before connecting, and a key the stream refuses', async () => {
    const noTarget = await runCli(['listen', '--api-key', 'nk_sandbox_x']);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('--forward-to is required');
    const typo = await runCli(['listen', '--api-key', 'nk_sandbox_x', '--forward-to', 'http://localhost:4242', '--events', 'oder.*']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("'oder.*' matches no event type");
    const refused = startListen(['--api-key', 'nk_sandbox_00000000000000000000000000000000', '--forward-to', `${local.url}/x`]);
    const res = await refused.done;
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/refused this key: HTTP 401/);
  });
});
