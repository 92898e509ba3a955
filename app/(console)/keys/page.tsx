import { ApiKeyCreateForm } from '@/components/console/developer/api-key-create-form';
import { ApiKeysTable } from '@/components/console/developer/api-keys-table';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, serverCaller, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'API keys · Fulfillment Rail' };

export default async function KeysPage() {
  const { me, mode } = await requireConsoleSession();
  if (!me.scopes.includes('keys.manage')) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="text-sm text-slate-600">Your role does not manage API keys. A developer, admin or owner of your clinic can create and revoke them.</p>
      </section>
    );
  }
  // A key can hold only scopes its creator holds, and a secret key holds all of them.
  const grants = await (await serverCaller()).auth.grants();
  await getQueryClient().prefetchQuery(trpcServer.developer.apiKeysWithCreators.queryOptions({}));
  return (
    <HydrateClient>
      <section className="space-y-6">
        <h1 className="text-2xl font-semibold">API keys</h1>
        <p className="text-sm text-slate-600">
          This clinic’s keys{mode === 'live' ? ' of both modes' : ' in sandbox'}, newest first. Revoking a key or deactivating a person does not revoke the keys they created; review them here.
        </p>
        <ApiKeyCreateForm grantable={grants.keyScopes} canCreateSecret={grants.secretKeys} modes={mode === 'live' ? ['live', 'sandbox'] : ['sandbox']} />
        <ApiKeysTable mode={mode} />
      </section>
    </HydrateClient>
  );
}
