import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, createUserAndLogin, expectEnvelope, OPS_KEY, startWithTwoClinics, type TestApp } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());

const patch = (tenantId: string, body: unknown, key: string = OPS_KEY) => app.request('PATCH', `/v1/ops/tenants/${tenantId}`, { key, body });
const stored = async (tenantId: string) => (await app.request('GET', '/v1/ops/tenants', { key: OPS_KEY })).body.find((t: { id: string }) => t.id === tenantId);
const OFF = { flow_checkout: false, flow_ai_freeform_medical: false };

describe('PATCH /v1/ops/tenants/{tenantId}', () => {
  it('shows every flag off on a new tenant, in list, create and /auth/me', async () => {
    const created = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name: 'Fresh' } });
    expect(created.body.features).toEqual(OFF);
    expect((await stored(a.tenantId)).features).toEqual(OFF);
    const me = await app.request('GET', '/v1/auth/me', { key: a.sandboxKey });
    expect(me.body.tenant.features).toEqual(OFF);
  });

  it('turns a flag on, merging with the stored flags, and changes the plan', async () => {
    const on = await patch(a.tenantId, { features: { flow_checkout: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: a.tenantId, features: { flow_checkout: true, flow_ai_freeform_medical: false } });
    const both = await patch(a.tenantId, { features: { flow_ai_freeform_medical: true } });
    expect(both.body.features).toEqual({ flow_checkout: true, flow_ai_freeform_medical: true });
    const plan = await patch(a.tenantId, { plan: 'growth' });
    expect(plan.body).toMatchObject({ plan: 'growth', features: { flow_checkout: true, flow_ai_freeform_medical: true } });
    const off = await patch(a.tenantId, { features: { flow_checkout: false } });
    expect(off.body.features).toEqual({ flow_checkout: false, flow_ai_freeform_medical: true });
    // The clinic sees its flags; the other clinic is untouched.
    expect((await app.request('GET', '/v1/auth/me', { key: a.liveKey })).body.tenant.features).toEqual({ flow_checkout: false, flow_ai_freeform_medical: true });
    expect((await app.request('GET', '/v1/auth/me', { key: b.liveKey })).body.tenant.features).toEqual(OFF);
  });

  it.each([
    ['an unknown flag', { features: { flow_teleport: true } }, 'features.flow_teleport'],
    ['a non-boolean flag', { features: { flow_checkout: 'yes' } }, 'features.flow_checkout'],
    ['an unknown plan', { plan: 'platinum' }, 'plan'],
    ['an unknown field', { name: 'Renamed' }, 'name'],
  ])('refuses %s with 400 naming it, changing nothing', async (_name, body, param) => {
    const before = await stored(b.tenantId);
    const res = await patch(b.tenantId, body);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(await stored(b.tenantId)).toEqual(before);
  });

  it('refuses an empty body and an empty features object with 400', async () => {
    const before = await stored(b.tenantId);
    expectEnvelope(await patch(b.tenantId, {}), 400, 'validation_error', 'empty_update');
    expectEnvelope(await patch(b.tenantId, { features: {} }), 400, 'validation_error', 'empty_update');
    expect(await stored(b.tenantId)).toEqual(before);
  });

  it('answers 404 for an unknown tenant', async () => {
    expectEnvelope(await patch('ten_00000000000000000000000000', { plan: 'growth' }), 404, 'not_found');
  });

  it('is for platform operators only: tenant keys and an owner session get 403', async () => {
    const before = await stored(a.tenantId);
    expectEnvelope(await patch(a.tenantId, { features: { flow_checkout: true } }, a.liveKey), 403, 'permission_error', 'ops_only');
    expectEnvelope(await patch(a.tenantId, { features: { flow_checkout: true } }, b.sandboxKey), 403, 'permission_error', 'ops_only');
    const owner = await createUserAndLogin(app, a.tenantId, { email: 'owner-flags@clinic.test', role: 'owner' });
    expectEnvelope(await patch(a.tenantId, { features: { flow_checkout: true } }, owner.token), 403, 'permission_error', 'ops_only');
    expect(await stored(a.tenantId)).toEqual(before);
  });
});
