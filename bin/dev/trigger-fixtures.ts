import type { FulfillmentRail, Schemas } from '@/sdk/src/index';

type SimulatedScript = Partial<Schemas['SimulatedPharmacySettings']>;

/** Short random suffix: each trigger makes its own objects, as `stripe trigger` does, so runs never collide. */
const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

/** A synthetic patient living in `state` (a sandbox key can create no other kind). */
export function syntheticPatient(api: FulfillmentRail, state: string) {
  return api.patients.create({
    synthetic: true,
    firstName: 'Trigger',
    lastName: `Testpatient ${tag()}`,
    dateOfBirth: '1984-03-09',
    sex: 'female',
    address: { line1: '1 Sandbox Way', city: 'Testville', state, postalCode: '90001', country: 'US' },
  });
}

/**
 * A product carried by one new simulated pharmacy only (so routing picks it), with an approved catalog, the
 * pharmacy scripted to do what the event needs (accept, ship, deliver at once, or reject).
 */
export async function productAtSimulatedPharmacy(api: FulfillmentRail, state: string, script: SimulatedScript) {
  const sku = `TRIGGER-${tag()}`;
  const product = await api.products.create({ name: `Trigger product ${sku}`, sku, form: 'tablet' });
  const pharmacy = await api.pharmacies.create({ name: `Trigger pharmacy ${sku}`, adapter: 'simulated', settings: script, states: [state] });
  const catalog = await api.post('/catalogs/upload', {
    params: { query: { pharmacyConnectionId: pharmacy.id } },
    body: { csv: `sku,item_code,price_cents,stock,eta_days\n${sku},SIM-${sku},1000,100,2\n` },
  });
  await api.patch('/catalogs/{id}/approve', { params: { path: { id: catalog.id } } });
  return { product, pharmacy, catalogId: catalog.id };
}

/** An order for that patient and product, waiting for a provider's approval. */
export function orderFor(api: FulfillmentRail, patientId: string, productId: string) {
  return api.orders.create({ patientId, items: [{ productId, quantity: 1, sig: 'Take one tablet daily (sandbox trigger)' }] });
}
