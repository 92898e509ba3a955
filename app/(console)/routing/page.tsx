import { loadApi } from '@/components/console/catalog-load';
import type { Product } from '@/components/console/catalog-types';
import { Refused } from '@/components/console/catalog-ui';
import type { Patient } from '@/components/console/patient-types';
import type { Pharmacy, RoutingPolicy } from '@/components/console/pharmacy-types';
import { RoutingWorkbench } from '@/components/console/routing-workbench';
import { requireConsoleSession } from '@/lib/console/session';
import { US_STATES } from '@/server/lib/us-states';

export const metadata = { title: 'Routing · Fulfillment Rail' };

export default async function RoutingPage() {
  const { token, mode } = await requireConsoleSession();
  const auth = { token, mode };
  const [policy, pharmacies, products, patients] = await Promise.all([
    loadApi<RoutingPolicy>('/pharmacies/routing-policy', auth),
    loadApi<Pharmacy[]>('/pharmacies', auth),
    loadApi<Product[]>('/products', auth),
    loadApi<Patient[]>('/patients', auth),
  ]);
  const refused = [policy, pharmacies, products].find((r) => !r.ok);
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Routing</h1>
        <p className="text-sm text-slate-600">Which pharmacy fills each line of a {mode} order: only enabled pharmacies with an approved catalog that prices the product qualify.</p>
      </div>
      {refused && !refused.ok ? (
        <Refused message={refused.message} />
      ) : policy.ok && pharmacies.ok && products.ok ? (
        <RoutingWorkbench
          policy={policy.data}
          pharmacies={pharmacies.data}
          products={products.data}
          patients={patients.ok ? patients.data : []}
          patientsRefused={patients.ok ? undefined : patients.message}
          usStates={US_STATES}
          token={token}
          mode={mode}
        />
      ) : null}
    </section>
  );
}
