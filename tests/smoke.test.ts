import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
beforeAll(async () => { app = await startTestApp(); });
afterAll(async () => { await app?.close(); });

describe('smoke', () => {
  it('lists keys', async () => {
    const t = await createTenantWithKeys(app);
    const r = await app.request('GET', '/v1/developer/keys', { key: t.sandboxKey });
    console.log(r.status, r.text);
    expect(r.status).toBe(200);
  });
});
