import { LIST_INPUT } from '@/components/console/catalog/catalog-types';
import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { PharmacyManager } from '@/components/console/pharmacies/pharmacy-manager';
import { catalogsInput, verificationInput } from '@/components/console/pharmacies/pharmacy-types';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Pharmacies · Fulfillment Rail' };

export default async function PharmaciesPage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('pharmacies.manage');
  // Each connection's catalogs need catalog.manage too; without it the rows say so where the catalogs would be.
  if (allowed) {
    const qc = getQueryClient();
    const list = trpcServer.pharmacies.listPharmacies.queryOptions(LIST_INPUT);
    await qc.prefetchQuery(list);
    const pharmacies = qc.getQueryData(list.queryKey) ?? [];
    await Promise.all([
      ...pharmacies.map((p) => qc.prefetchQuery(trpcServer.catalogs.listCatalogs.queryOptions(catalogsInput(p.id)))),
      // An http pharmacy's last protocol check, shown on its card.
      ...pharmacies.filter((p) => p.adapter === 'http').map((p) => qc.prefetchQuery(trpcServer.pharmacies.getPharmacyVerification.queryOptions(verificationInput(p.id)))),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Pharmacies</h1>
        <p className="text-sm text-slate-600">
          Connections routing may send {mode} orders to. A pharmacy takes part in routing once enabled and with an approved catalog (price list).
        </p>
      </div>
      {allowed ? (
        <HydrateClient>
          <PharmacyManager mode={mode} />
        </HydrateClient>
      ) : (
        <NoAccess what="manage pharmacy connections" role={me.user.role} />
      )}
    </section>
  );
}
