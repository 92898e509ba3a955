import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '@/bin/run-cli';
import { seedDemo, type DemoSeed } from '@/server/domain/seed/demo';
import { mintWebhookSecret } from '@/server/domain/webhooks/secrets';
import { runQuickstart } from '@/examples/node-quickstart/src/quickstart';
import { startWebhookServer } from '@/examples/node-quickstart/src/webhook-server';
import { startTestApp, type TestApp } from './helpers/harness';
import { TEST_TIMEOUT_MS, waitFor } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS * 2 });

// examples/node-quickstart as its README runs it, against the demo clinic a fresh `npm start` makes: the SDK
// creates a patient and an order, `listen` forwards the stream, and the example's handler verifies each webhook.
let app: TestApp;
let demo: DemoSeed;
beforeAll(async () => {
  app = await startTestApp();
  demo = (await seedDemo(app.services.database.db))!;
});
afterAll(async () => app?.close());

describe('examples/node-quickstart', () => {
  it('creates a patient and an order with the SDK and receives its webhooks through listen, verified', async () => {
    // `listen --secret` keeps a secret the handler already holds (the README copies the printed one instead).
    const secret = mintWebhookSecret();
    const server = await startWebhookServer({ port: 0, secret });
    const lines: string[] = [];
    const stop = new AbortController();
    const listening = runCli(['listen', '--api-key', demo.sandboxKey, '--forward-to', server.url, '--base-url', app.baseUrl, '--secret', secret], process.env, {
      print: (l) => void lines.push(l),
      signal: stop.signal,
    });
    try {
      await waitFor(() => lines.some((l) => l.includes('Connected to the event stream')), { what: 'listen to connect' });
      const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
      const { patientId, orderId } = await runQuickstart(demo.sandboxKey, app.baseUrl).finally(() => log.mockRestore());
      expect(patientId).toMatch(/^pat_/);
      const event = await server.waitFor((e) => e.type === 'order.cancelled' && e.data.orderId === orderId);
      expect(event.data).toMatchObject({ orderId, status: 'cancelled' });
      expect(server.refused).toBe(0);
      // listen prints its line once the handler has answered.
      await waitFor(() => lines.some((l) => l.includes('order.cancelled') && l.includes(event.id) && l.includes('--> 200')), { what: "listen's delivery line" });

      // A forged delivery is refused and never reaches the integration.
      const forged = await fetch(server.url, { method: 'POST', headers: { 'webhook-id': 'evt_x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' }, body: '{}' });
      expect(forged.status).toBe(400);
      expect(server.events.map((e) => e.id)).toEqual([event.id]);
    } finally {
      stop.abort();
      await listening;
      await server.close();
    }
  });
});
