import { loadApi } from '@/components/console/catalog-load';
import type { Catalog } from '@/components/console/catalog-types';
import { Refused } from '@/components/console/catalog-ui';
import { PharmacyManager } from '@/components/console/pharmacy-manager';
import type { Pharmacy } from '@/components/console/pharmacy-types';
import { requireConsoleSession } from '@/lib/console/session';
import { US_STATES } from '@/server/lib/us-states';

export const metadata = { title: 'Pharmacies · Fulfillment Rail' };

export default async function PharmaciesPage() {
  const { token, mode } = await requireConsoleSession();
  const auth = { token, mode };
  const pharmacies = await loadApi<Pharmacy[]>('/pharmacies', auth);
  const catalogs: Record<string, Catalog[]> = {};
  if (pharmacies.ok) {
    // The 20 newest catalogs of each connection, fetched side by side.
    const lists = await Promise.all(
      pharmacies.data.map((p) => loadApi<Catalog[]>(`/catalogs?${new URLSearchParams({ pharmacyConnectionId: p.id, limit: '20' })}`, auth)),
    );
    pharmacies.data.forEach((p, i) => {
      const list = lists[i];
      catalogs[p.id] = list.ok ? list.data : [];
    });
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Pharmacies</h1>
        <p className="text-sm text-slate-600">
          Connections routing may send {mode} orders to. A pharmacy takes part in routing once enabled and with an approved catalog (price list).
        </p>
      </div>
      {pharmacies.ok ? (
        <PharmacyManager pharmacies={pharmacies.data} catalogs={catalogs} usStates={US_STATES} token={token} mode={mode} />
      ) : (
        <Refused message={pharmacies.message} />
      )}
    </section>
  );
}
