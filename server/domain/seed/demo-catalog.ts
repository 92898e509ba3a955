import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { approveCatalog } from '@/server/domain/catalog/catalogs';
import { createProduct } from '@/server/domain/catalog/products';
import { createProtocol } from '@/server/domain/catalog/protocols';
import { createPatient } from '@/server/domain/patients/patients';
import { createConnection } from '@/server/domain/pharmacies/connections';
import { setPolicy } from '@/server/domain/pharmacies/routing-policy';
import { syncCatalog } from '@/server/domain/pharmacies/sync-catalog';

const PRODUCTS = [
  { sku: 'SEMA-025', name: 'Semaglutide 0.25 mg/0.5 mL pen', form: 'injection', strength: '0.25 mg', rxRequired: true },
  { sku: 'TIRZ-25', name: 'Tirzepatide 2.5 mg/0.5 mL vial', form: 'injection', strength: '2.5 mg', rxRequired: true },
  { sku: 'ONDAN-4', name: 'Ondansetron 4 mg ODT', form: 'tablet', strength: '4 mg', rxRequired: true },
  { sku: 'NDL-31G', name: 'Pen needles 31G 5 mm', form: 'device', strength: null, rxRequired: false },
  { sku: 'FIN-1', name: 'Finasteride 1 mg tablet', form: 'tablet', strength: '1 mg', rxRequired: true },
  { sku: 'MINOX-25', name: 'Minoxidil 2.5 mg tablet', form: 'tablet', strength: '2.5 mg', rxRequired: true },
] as const;

// Sunrise is cheaper on the GLP-1s; Lakeside is faster and is the only one that ships to AZ, NV and OR.
const PHARMACIES = [
  {
    name: 'Sunrise Compounding (simulated)',
    states: ['CA', 'FL', 'NY', 'TX', 'WA'],
    catalog: [
      ['SEMA-025', 'SUN-SEM-025', 18900, 120, 4],
      ['TIRZ-25', 'SUN-TIR-025', 24900, 80, 4],
      ['ONDAN-4', 'SUN-OND-4', 900, 500, 3],
      ['NDL-31G', 'SUN-NDL-31', 1200, 1000, 3],
      ['FIN-1', 'SUN-FIN-1', 1500, 900, 3],
      ['MINOX-25', 'SUN-MNX-25', 1100, 600, 3],
    ],
  },
  {
    name: 'Lakeside Pharmacy (simulated)',
    states: ['AZ', 'CA', 'NV', 'OR', 'TX', 'WA'],
    catalog: [
      ['SEMA-025', 'LK-7731', 21500, 40, 2],
      ['TIRZ-25', 'LK-7790', 26900, 0, 2],
      ['ONDAN-4', 'LK-1044', 750, 300, 2],
      ['FIN-1', 'LK-2210', 1700, 400, 2],
      ['MINOX-25', 'LK-2245', 1300, 250, 2],
    ],
  },
] as const;

/**
 * The sandbox world the demo tenant starts with, so a routing plan answers on a fresh start: products,
 * protocols, two simulated pharmacies with approved catalogs, a policy and two synthetic patients.
 */
export async function seedDemoCatalog(db: Db, principal: TenantPrincipal) {
  const products = new Map<string, string>();
  for (const p of PRODUCTS) products.set(p.sku, (await createProduct(db, principal, { ...p, active: true })).id);
  const glp1Starter = await createProtocol(db, principal, {
    name: 'GLP-1 starter (semaglutide)',
    description: 'First month of semaglutide with needles and as-needed nausea relief',
    active: true,
    items: [
      { productId: products.get('SEMA-025')!, quantity: 1, sig: 'Inject 0.25 mg subcutaneously once weekly for 4 weeks', refills: 0 },
      { productId: products.get('NDL-31G')!, quantity: 4, sig: 'Use a new needle for each injection', refills: 0 },
      { productId: products.get('ONDAN-4')!, quantity: 10, sig: 'Dissolve 1 tablet on the tongue every 8 hours as needed for nausea', refills: 1 },
    ],
  });
  const policy = { allowLocalhost: false };
  const connectionIds: string[] = [];
  for (const ph of PHARMACIES) {
    const catalog = ph.catalog.map(([sku, itemCode, priceCents, stock, etaDays]) => ({ sku, itemCode, priceCents, stock, etaDays }));
    const connection = await createConnection(
      db,
      principal,
      { name: ph.name, adapter: 'simulated', settings: { shipAfterSeconds: 60, deliverAfterSeconds: 180, catalog }, states: [...ph.states], status: 'enabled' },
      policy,
    );
    connectionIds.push(connection.id);
    const synced = await syncCatalog(db, principal, connection.id, policy);
    await approveCatalog(db, principal, synced.id);
  }
  await setPolicy(db, principal, { strategy: 'lowest_cost', priority: connectionIds, requireStateLicense: true, allowFallback: true });
  const glp1Refill = await createProtocol(db, principal, {
    name: 'GLP-1 maintenance refill (semaglutide)',
    description: 'A further month of the current semaglutide dose with needles',
    active: true,
    items: [
      { productId: products.get('SEMA-025')!, quantity: 1, sig: 'Inject 0.25 mg subcutaneously once weekly', refills: 0 },
      { productId: products.get('NDL-31G')!, quantity: 4, sig: 'Use a new needle for each injection', refills: 0 },
    ],
  });
  const hairLoss = await createProtocol(db, principal, {
    name: 'Hair loss (finasteride + oral minoxidil)',
    description: 'Three months of daily finasteride and low-dose oral minoxidil',
    active: true,
    items: [
      { productId: products.get('FIN-1')!, quantity: 90, sig: 'Take 1 tablet by mouth once daily', refills: 3 },
      { productId: products.get('MINOX-25')!, quantity: 90, sig: 'Take 1 tablet by mouth once daily', refills: 3 },
    ],
  });
  const patients = [
    { firstName: 'Avery', lastName: 'Demo-Sample', dateOfBirth: '1986-04-12', sex: 'female', state: 'CA', city: 'Sacramento', postalCode: '95814' },
    { firstName: 'Jordan', lastName: 'Demo-Sample', dateOfBirth: '1979-09-30', sex: 'male', state: 'AZ', city: 'Phoenix', postalCode: '85004' },
  ] as const;
  for (const p of patients) {
    await createPatient(
      db,
      principal,
      {
        firstName: p.firstName,
        lastName: p.lastName,
        dateOfBirth: p.dateOfBirth,
        sex: p.sex,
        email: `${p.firstName.toLowerCase()}.demo@example.com`,
        phone: '+15555550142',
        address: { line1: '100 Sample St', city: p.city, state: p.state, postalCode: p.postalCode, country: 'US' },
        allergies: [],
        medications: [],
      },
      'seed',
    );
  }
  return { protocols: { glp1Starter: glp1Starter.id, glp1Refill: glp1Refill.id, hairLoss: hairLoss.id } };
}

export type DemoProtocols = Awaited<ReturnType<typeof seedDemoCatalog>>['protocols'];
