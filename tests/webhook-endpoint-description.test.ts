import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, expectEnvelope, startWithTwoClinics, type TestApp } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());

const URL_OK = 'https://hooks.clinic-a.example/described';
const create = (key: string, body: unknown) => app.request('POST', '/v1/developer/webhooks', { key, body });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/developer/webhooks/${id}`, { key, body });
const listed = async (key: string, id: string) => (await app.request('GET', '/v1/developer/webhooks', { key })).body.find((e: { id: string }) => e.id === id);

describe('webhook endpoint description', () => {
  it('is null unless given, kept trimmed at creation, and listed', async () => {
    const bare = await create(a.sandboxKey, { url: URL_OK });
    expect(bare.body.description).toBeNull();
    const noted = await create(a.sandboxKey, { url: URL_OK, description: '  Order updates for the EHR  ' });
    expect(noted.status).toBe(201);
    expect(noted.body.description).toBe('Order updates for the EHR');
    expect((await listed(a.sandboxKey, noted.body.id)).description).toBe('Order updates for the EHR');
  });

  it('changes with PATCH alone (url and events untouched), and an empty one clears it', async () => {
    const ep = (await create(a.sandboxKey, { url: URL_OK, events: ['order.routed'] })).body;
    const res = await patch(a.sandboxKey, ep.id, { description: 'Fulfilment dashboard' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: URL_OK, events: ['order.routed'], description: 'Fulfilment dashboard' });
    expect((await patch(a.sandboxKey, ep.id, { description: '' })).body.description).toBeNull();
    expect((await listed(a.sandboxKey, ep.id)).description).toBeNull();
  });

  it('refuses more than 500 characters, naming the field, and keeps the old one', async () => {
    const ep = (await create(a.sandboxKey, { url: URL_OK, description: 'Kept' })).body;
    const res = await patch(a.sandboxKey, ep.id, { description: 'x'.repeat(501) });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('description');
    expect(res.body.error.message).toContain('500 characters');
    expect((await listed(a.sandboxKey, ep.id)).description).toBe('Kept');
  });

  it('a refused URL in the same PATCH changes nothing, the description included', async () => {
    const ep = (await create(a.sandboxKey, { url: URL_OK, description: 'Before' })).body;
    const res = await patch(a.sandboxKey, ep.id, { url: 'https://10.0.0.5/hook', description: 'After' });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('url');
    expect(await listed(a.sandboxKey, ep.id)).toMatchObject({ url: URL_OK, description: 'Before' });
  });

  it('belongs to its tenant: clinic B cannot change it', async () => {
    const ep = (await create(a.sandboxKey, { url: URL_OK, description: 'Mine' })).body;
    expectEnvelope(await patch(b.sandboxKey, ep.id, { description: 'Theirs' }), 404, 'not_found');
    expect((await listed(a.sandboxKey, ep.id)).description).toBe('Mine');
  });
});
