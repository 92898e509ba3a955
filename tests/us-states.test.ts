import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogWorld } from './helpers/catalog-world';
import { createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { providerSession } from './helpers/orders-world';

/*
 * Issue 21, item 7: one list of US states (the states, DC and Puerto Rico) and one licence rule for
 * patients, pharmacies and providers alike. The patient list used to lack PR, so a clinic could connect a
 * pharmacy shipping to Puerto Rico and license a provider there, yet not record a patient living there.
 */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

const PR_PATIENT = { firstName: 'Rosa', lastName: 'Plantedsurname', dateOfBirth: '1980-03-04', sex: 'female', address: { line1: '1 Calle Luna', city: 'San Juan', state: 'pr', postalCode: '00901' } };

describe('Puerto Rico, end to end', () => {
  it('a PR patient, a pharmacy shipping to PR and a provider licensed in PR: the order is approved and submitted', async () => {
    const t = await createTenantWithKeys(app, 'Island clinic');
    const w = catalogWorld(app, t.sandboxKey);
    const product = await w.product('PR-GLP');
    const pharmacy = await w.pharmacy('Isla', ['pr']);
    await w.approvedCatalog(pharmacy.id, [['PR-GLP', 'I-GLP', 1000, 50, 3]]);

    const patient = await app.request('POST', '/v1/patients', { key: t.sandboxKey, body: PR_PATIENT });
    expect(patient.status, patient.text).toBe(201);
    expect(patient.body.address.state).toBe('PR');

    const provider = await providerSession(app, t.tenantId, ['PR']);
    const check = await app.request('POST', '/v1/auth/provider-check', { key: provider.token, body: { state: 'pr' } });
    expect(check.status, check.text).toBe(200);
    expect(check.body).toMatchObject({ authorized: true, state: 'PR', reason: null });

    const order = await app.request('POST', '/v1/orders', { key: t.sandboxKey, body: { patientId: patient.body.id, items: [{ productId: product.id, quantity: 1, sig: 'Inject 0.25 mg weekly' }] } });
    expect(order.status, order.text).toBe(201);
    expect(order.body.status).toBe('pending_approval');
    const approved = await app.request('POST', `/v1/orders/${order.body.id}/approve`, { key: provider.token, body: {} });
    expect(approved.status, approved.text).toBe(201);
    expect(approved.body.status).toBe('submitted');
  });
});

describe('one state rule for every input', () => {
  it('licensed states take any letter case like patients and pharmacies, and refuse what is no state with its param', async () => {
    const t = await createTenantWithKeys(app, 'Case clinic');
    const provider = await providerSession(app, t.tenantId, ['pr', 'ca']);
    const check = await app.request('POST', '/v1/auth/provider-check', { key: provider.token, body: { state: 'CA' } });
    expect(check.body.licensedStates).toEqual(['PR', 'CA']);

    const bad = await app.request('POST', '/v1/auth/provider-check', { key: provider.token, body: { state: 'ZZ' } });
    expectEnvelope(bad, 400, 'validation_error');
    expect(bad.body.error.param).toBe('state');
    const patient = await app.request('POST', '/v1/patients', { key: t.sandboxKey, body: { ...PR_PATIENT, address: { ...PR_PATIENT.address, state: 'ZZ' } } });
    expectEnvelope(patient, 400, 'validation_error');
    expect(patient.body.error.param).toBe('address.state');
  });
});
