import { ApiKeysTable, type ConsoleApiKey } from '@/components/console/api-keys-table';
import { callApi } from '@/lib/console/api';
import { requireConsoleSession } from '@/lib/console/session';

export default async function KeysPage() {
  const { token, mode } = await requireConsoleSession();
  const keys = await callApi<ConsoleApiKey[]>('/developer/keys', { token, mode });
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">API keys</h1>
      <p className="text-sm text-slate-600">
        This clinic’s keys{mode === 'live' ? ' of both modes' : ' in sandbox'}, newest first. Revoking a key or deactivating a person does not revoke the keys they created; review them here.
      </p>
      <ApiKeysTable keys={keys} mode={mode} />
    </section>
  );
}
