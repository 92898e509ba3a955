import { freshTotp } from './totp';
import { catalogWorld } from './catalog-world';
import { createTenantWithKeys, createUserAndLogin, VALID_NPI, type TestApp } from './harness';

/** A provider session that may approve: verified NPI, MFA enrolled, licensed in `states`. */
export async function providerSession(app: TestApp, tenantId: string, states: string[], email = `dr-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@clinic.test`) {
  const u = await createUserAndLogin(app, tenantId, { email, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: states });
  const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: u.token, body: {} });
  const ok = await app.request('POST', '/v1/auth/mfa/verify', { key: u.token, body: { code: await freshTotp(enroll.body.secret) } });
  if (ok.status !== 200) throw new Error(`mfa failed: ${ok.text}`);
  return { ...u, states };
}

/**
 * A tenant ready to take orders in one mode: two products, two simulated pharmacies with approved
 * catalogs (Alpha cheaper, Beta dearer), patients in CA and TX, and a provider licensed in CA.
 */
export async function ordersWorld(app: TestApp, name = 'Orders', opts: { mode?: 'sandbox' | 'live'; alphaSettings?: Record<string, unknown>; betaSettings?: Record<string, unknown> } = {}) {
  const t = await createTenantWithKeys(app, name);
  const key = opts.mode === 'live' ? t.liveKey : t.sandboxKey;
  const w = catalogWorld(app, key);
  const glp = await w.product('GLP');
  const ndl = await w.product('NDL');
  const alpha = await w.pharmacy('Alpha', ['CA', 'TX'], opts.alphaSettings ?? {});
  const beta = await w.pharmacy('Beta', ['CA', 'TX'], opts.betaSettings ?? {});
  await w.approvedCatalog(alpha.id, [['GLP', 'A-GLP', 1000, 50, 3], ['NDL', 'A-NDL', 100, 50, 3]]);
  await w.approvedCatalog(beta.id, [['GLP', 'B-GLP', 2000, 50, 2], ['NDL', 'B-NDL', 200, 50, 2]]);
  const patient = async (state: string) => {
    const body = { firstName: 'Quinn', lastName: `Plantedname${state}`, dateOfBirth: '1971-07-17', sex: 'female', email: `quinn.${state.toLowerCase()}@plantedmail.test`, address: { line1: '9 Elm St', city: 'Town', state, postalCode: '90001' } };
    const res = await app.request('POST', '/v1/patients', { key, body });
    if (res.status !== 201) throw new Error(res.text);
    return res.body.id as string;
  };
  const provider = await providerSession(app, t.tenantId, ['CA']);
  const headers: Record<string, string> = opts.mode === 'live' ? { 'x-mode': 'live' } : {};
  const world = {
    ...t,
    key,
    products: { glp: glp.id, ndl: ndl.id },
    pharmacies: { alpha: alpha.id, beta: beta.id, alphaSecret: alpha.secret, betaSecret: beta.secret },
    patients: { ca: await patient('CA'), tx: await patient('TX') },
    provider,
    create: (body: Record<string, unknown> = {}, k = key, idempotencyKey?: string) =>
      app.request('POST', '/v1/orders', { key: k, idempotencyKey, body: { items: [{ productId: glp.id, quantity: 1, sig: 'Inject 0.25 mg weekly' }], patientId: world.patients.ca, ...body } }),
    act: (id: string, action: string, k: string = key, body?: unknown, idempotencyKey?: string) => app.request('POST', `/v1/orders/${id}/${action}`, { key: k, body: body ?? {}, idempotencyKey, headers }),
    approve: (id: string, token = provider.token, idempotencyKey?: string) => app.request('POST', `/v1/orders/${id}/approve`, { key: token, body: {}, idempotencyKey, headers }),
    get: (id: string, k = key) => app.request('GET', `/v1/orders/${id}`, { key: k }),
  };
  return world;
}
