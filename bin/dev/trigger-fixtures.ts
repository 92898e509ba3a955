import { createHash } from 'node:crypto';
import { ConflictError, type FulfillmentRail, type Schemas } from '@/sdk/src/index';
import { US_STATES } from '@/server/lib/us-states';

type SimulatedScript = Schemas['SimulatedPharmacySettings'];
type Pharmacy = Schemas['PharmacyConnection'];
type Product = Schemas['Product'];

/** Short random suffix: each trigger makes its own patient, so runs never collide. */
const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

/** A synthetic patient living in `state` (a sandbox key can create no other kind): new on every run. */
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

const DAY = 86_400;
const ACCEPTS: Omit<SimulatedScript, 'catalog'> = {
  behavior: 'accept',
  rejectReasonCode: 'prescription_invalid',
  acceptAfterSeconds: 0,
  shipAfterSeconds: DAY,
  deliverAfterSeconds: DAY,
  carrier: 'UPS',
  outOfStock: [],
};

/**
 * The simulated pharmacies trigger sets up, one per script an event needs, each with the one product only it
 * carries (so routing picks it). They are made on the first run that needs them and found again by name and SKU
 * afterwards: a tenant gains at most these four pharmacies and four products however often trigger runs.
 * Their scripts stay fixed because a simulated pharmacy reads its script whenever it is asked about an order: a
 * shared pharmacy re-scripted per run would change what the orders of earlier runs do.
 */
export const FIXTURES = {
  holds: { sku: 'TRIGGER-HOLDS', label: 'accepts, ships after a day', script: ACCEPTS },
  ships: { sku: 'TRIGGER-SHIPS', label: 'ships at once', script: { ...ACCEPTS, shipAfterSeconds: 0 } },
  delivers: { sku: 'TRIGGER-DELIVERS', label: 'delivers at once', script: { ...ACCEPTS, shipAfterSeconds: 0, deliverAfterSeconds: 0 } },
  rejects: { sku: 'TRIGGER-REJECTS', label: 'rejects', script: { ...ACCEPTS, behavior: 'reject' } },
} satisfies Record<string, { sku: string; label: string; script: Omit<SimulatedScript, 'catalog'> }>;
export type FixtureName = keyof typeof FIXTURES;

export const pharmacyName = (f: FixtureName) => `Trigger pharmacy (${FIXTURES[f].label})`;
const productName = (f: FixtureName) => `Trigger sample (${FIXTURES[f].label})`;

/**
 * The Idempotency-Key of a fixture's create, derived from what it creates: two triggers setting up the same
 * fixture at once get one object (the server answers the second with the first's result), and a changed body
 * gets a new key rather than a refusal.
 */
function fixtureKey(body: unknown): string {
  const h = createHash('sha256').update(`fulfillment-rail trigger fixture ${JSON.stringify(body)}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const findProduct = async (api: FulfillmentRail, sku: string) => {
  for await (const p of api.list('/products', { params: { query: { limit: 100 } } })) if (p.sku === sku) return p as Product;
  return undefined;
};

async function ensureProduct(api: FulfillmentRail, f: FixtureName): Promise<Product> {
  const { sku } = FIXTURES[f];
  const found = await findProduct(api, sku);
  if (found) return found.active ? found : api.patch('/products/{id}', { params: { path: { id: found.id } }, body: { active: true } });
  const body = { name: productName(f), sku, form: 'tablet' as const };
  try {
    return await api.products.create(body, { idempotencyKey: fixtureKey(body) });
  } catch (err) {
    // Made a moment ago by another trigger under another key: the SKU is taken, by the product we want.
    const raced = err instanceof ConflictError && err.code === 'sku_taken' ? await findProduct(api, sku) : undefined;
    if (!raced) throw err;
    return raced;
  }
}

/** What of the fixture's state differs from what trigger needs: disabled, a state missing, the script changed. */
function drift(p: Pharmacy, f: FixtureName, state: string) {
  const settings = p.settings as Partial<SimulatedScript>;
  const script = FIXTURES[f].script as Record<string, unknown>;
  const scriptChanged = Object.keys(script).some((k) => JSON.stringify(settings[k as keyof SimulatedScript]) !== JSON.stringify(script[k]));
  return { ...(p.status !== 'enabled' && { status: 'enabled' as const }), ...(!p.states.includes(state) && { states: [...p.states, state] }), ...(scriptChanged && { settings: script }) };
}

async function ensurePharmacy(api: FulfillmentRail, f: FixtureName, state: string): Promise<Pharmacy> {
  const name = pharmacyName(f);
  let pharmacy: Pharmacy | undefined;
  for await (const p of api.list('/pharmacies', { params: { query: { limit: 100 } } })) if (p.adapter === 'simulated' && p.name === name) pharmacy ??= p;
  if (!pharmacy) {
    // Shipping to every state, so whichever state the provider signing in is licensed in, the order routes here.
    const body = { name, adapter: 'simulated' as const, settings: FIXTURES[f].script, states: [...US_STATES] };
    pharmacy = (await api.pharmacies.create(body, { idempotencyKey: fixtureKey(body) })) as Pharmacy;
  }
  const fix = drift(pharmacy, f, state);
  return Object.keys(fix).length === 0 ? pharmacy : api.patch('/pharmacies/{id}', { params: { path: { id: pharmacy.id } }, body: fix });
}

/** The pharmacy's approved catalog when it prices the product with stock, else a new one, approved. */
async function ensureCatalog(api: FulfillmentRail, pharmacy: Pharmacy, product: Product): Promise<string> {
  if (pharmacy.approvedCatalogId) {
    const approved = await api.get('/catalogs/{id}', { params: { path: { id: pharmacy.approvedCatalogId } } });
    if (approved.lines.some((l) => l.productId === product.id && l.stock > 0)) return approved.id;
  }
  const catalog = await api.post('/catalogs/upload', {
    params: { query: { pharmacyConnectionId: pharmacy.id } },
    body: { csv: `product_id,item_code,price_cents,stock,eta_days\n${product.id},SIM-${product.sku},1000,1000000,2\n` },
  });
  await api.patch('/catalogs/{id}/approve', { params: { path: { id: catalog.id } } });
  return catalog.id;
}

/**
 * The fixture's simulated pharmacy and its product, with an approved catalog pricing it, ready to route an order
 * to from `state`: found when an earlier run made them (repaired if someone changed them), made otherwise.
 */
export async function productAtSimulatedPharmacy(api: FulfillmentRail, f: FixtureName, state: string) {
  const product = await ensureProduct(api, f);
  const pharmacy = await ensurePharmacy(api, f, state);
  const catalogId = await ensureCatalog(api, pharmacy, product);
  return { product, pharmacy, catalogId };
}

/** An order for that patient and product, waiting for a provider's approval: new on every run. */
export function orderFor(api: FulfillmentRail, patientId: string, productId: string) {
  return api.orders.create({ patientId, items: [{ productId, quantity: 1, sig: 'Take one tablet daily (sandbox trigger)' }] });
}
