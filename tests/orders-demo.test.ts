import { sql } from 'drizzle-orm';
import { freshTotp } from './helpers/totp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '@/server/domain/seed/demo';
import { setClock } from '@/server/lib/clock';
import { query } from './helpers/dispatch';
import { startTestApp, type TestApp } from './helpers/harness';
import { waitFor } from './helpers/webhooks';

let app: TestApp;
let seed: DemoSeed;

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', ORDER_SYNC_INTERVAL_MS: '100', WORKER_POLL_MS: '50' });
  seed = (await seedDemo(app.services.database.db))!;
});
afterAll(async () => {
  setClock(null);
  await app?.close();
});

describe('the demo clinic runs a complete sandbox order', () => {
  it('create → approve as the demo provider → submitted → accepted → shipped → delivered on the simulated timeline', async () => {
    const provider = seed.people.find((p) => p.role === 'provider')!;
    const login = await app.request('POST', '/v1/auth/login', { body: { email: provider.email, password: provider.password } });
    const token = login.body.accessToken as string;
    const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: token, body: {} });
    await app.request('POST', '/v1/auth/mfa/verify', { key: token, body: { code: await freshTotp(enroll.body.secret) } });

    const key = seed.sandboxKey;
    const products = (await app.request('GET', '/v1/products', { key })).body as { id: string; sku: string }[];
    const patients = (await app.request('GET', '/v1/patients', { key })).body as { id: string; synthetic: boolean; address: { state: string } }[];
    const patient = patients.find((p) => p.address.state === 'CA')!;
    expect(patient.synthetic).toBe(true);
    const sema = products.find((p) => p.sku === 'SEMA-025')!;
    const created = await app.request('POST', '/v1/orders', { key, body: { items: [{ productId: sema.id, quantity: 1, sig: 'Inject 0.25 mg weekly' }], patientId: patient.id } });
    expect(created.body.status).toBe('pending_approval');

    const approved = await app.request('POST', `/v1/orders/${created.body.id}/approve`, { key: token, body: {} });
    expect(approved.status).toBe(201);
    expect(approved.body.status).toBe('submitted');
    const pharmacies = (await app.request('GET', '/v1/pharmacies', { key })).body as { id: string; name: string; adapter: string }[];
    const chosen = pharmacies.find((p) => p.id === approved.body.pharmacyConnectionId)!;
    expect(chosen).toMatchObject({ adapter: 'simulated', name: 'Sunrise Compounding (simulated)' });

    const reaches = (status: string) =>
      waitFor(async () => {
        const order = (await app.request('GET', `/v1/orders/${created.body.id}`, { key })).body;
        return order.status === status ? order : null;
      }, { timeoutMs: 30_000, what: `the order to reach ${status}` });
    await reaches('accepted');
    // The seeded script ships 60 s and delivers 180 s after the pharmacy received the order: move the clock
    // to those points of its own timeline instead of waiting (not from the test's start, which a slow host delays).
    const [{ received_at }] = await query<{ received_at: string | Date }>(app, sql`select received_at from simulated_pharmacy_orders where payload->>'orderId' = ${created.body.id}`);
    const received = new Date(received_at).getTime();
    setClock(() => new Date(received + 90_000));
    const shipped = await reaches('shipped');
    expect(shipped.shipment).toMatchObject({ carrier: 'UPS', trackingNumber: expect.stringMatching(/^1ZSIM/), trackingUrl: expect.stringContaining('ups.com') });
    setClock(() => new Date(received + 200_000));
    const delivered = await reaches('delivered');
    expect(delivered.timeline.map((t: { to: string; actorKind: string }) => `${t.to}:${t.actorKind}`)).toEqual([
      'pending_approval:key',
      'approved:user',
      'submitting:user',
      'submitted:pharmacy',
      'accepted:pharmacy',
      'shipped:pharmacy',
      'delivered:pharmacy',
    ]);
    const events = (await app.request('GET', '/v1/developer/events?limit=20', { key })).body.data as { type: string; data: Record<string, unknown> }[];
    const mine = events.filter((e) => e.data.orderId === created.body.id).map((e) => e.type).reverse();
    expect(mine).toEqual(['order.routed', 'order.submitted', 'order.shipped', 'order.delivered']);
  });
});
