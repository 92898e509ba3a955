import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, createUserAndLogin, startTestApp, type Clinic, type TestApp } from './helpers/harness';

/*
 * Issue 34 item 11: bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) in names and
 * copy would render a patient's or a product's name reversed on every page that shows it. They are dropped from
 * every string on the way in; a password alone is kept exactly as chosen.
 */

const RLO = '\u202E';
const LRI = '\u2066';
const PDI = '\u2069';
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

let app: TestApp;
let a: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app);
});
afterAll(async () => app?.close());

describe('bidirectional control characters', () => {
  it('are dropped from patient and product names, as stored and as read back', async () => {
    const patient = await app.request('POST', '/v1/patients', {
      key: a.sandboxKey,
      body: { firstName: `Ada${RLO}ecalevoL`, lastName: `${LRI}King${PDI}`, dateOfBirth: '1985-05-05', sex: 'female' },
    });
    expect(patient.status, patient.text).toBe(201);
    const read = await app.request('GET', `/v1/patients/${patient.body.id}`, { key: a.sandboxKey });
    expect(read.body).toMatchObject({ firstName: 'AdaecalevoL', lastName: 'King' });
    expect(JSON.stringify(read.body)).not.toMatch(BIDI);

    const product = await app.request('POST', '/v1/products', {
      key: a.sandboxKey,
      body: { sku: 'BIDI-1', name: `Semaglutide ${RLO}lairav${PDI}`, form: 'injection', strength: '0.25 mg', rxRequired: true, active: true },
    });
    expect(product.status, product.text).toBe(201);
    expect(product.body.name).toBe('Semaglutide lairav');
    const listed = await app.request('GET', '/v1/products', { key: a.sandboxKey });
    expect(JSON.stringify(listed.body)).not.toMatch(BIDI);
  });

  it('stay in a password, which must verify exactly as chosen', async () => {
    const password = `correct horse ${RLO}battery staple`;
    const email = `bidi-${Date.now()}@clinic.test`;
    const user = await createUserAndLogin(app, a.tenantId, { email, role: 'admin' }, password);
    expect(user.token).toBeTruthy();
    const stripped = await app.request('POST', '/v1/auth/login', { body: { email, password: password.replace(RLO, '') } });
    expect(stripped.status).toBe(401);
  });
});
