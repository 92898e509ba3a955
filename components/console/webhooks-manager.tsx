'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import { Alert, Button, Field } from './field';
import { WebhookRow, type Endpoint } from './webhook-row';

export function WebhooksManager({ endpoints, eventTypes, token, mode }: { endpoints: Endpoint[]; eventTypes: string[]; token: string; mode: string }) {
  const router = useRouter();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>([]);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();

  async function create(e: React.FormEvent) {
    e.preventDefault();
    const res = await apiCall<{ secret: string }>('POST', '/developer/webhooks', { url, events: types }, { token, mode });
    if (!res.ok) return setError(res.error?.message);
    setError(undefined);
    setSecret(res.data.secret);
    setUrl('');
    router.refresh();
  }

  return (
    <div className="space-y-8">
      <form onSubmit={create} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="font-semibold">Add an endpoint</h2>
        <Field label="Endpoint URL" name="url" type="url" placeholder="https://clinic.example/webhooks" value={url} onChange={(e) => setUrl(e.target.value)} required />
        <fieldset className="text-sm">
          <legend className="font-medium text-slate-700">Events (none selected means all)</legend>
          <div className="mt-2 grid grid-cols-2 gap-1 sm:grid-cols-3">
            {eventTypes.map((t) => (
              <label key={t} className="flex items-center gap-2 text-slate-600">
                <input type="checkbox" checked={types.includes(t)} onChange={(e) => setTypes(e.target.checked ? [...types, t] : types.filter((x) => x !== t))} />
                {t}
              </label>
            ))}
          </div>
        </fieldset>
        {error && <Alert>{error}</Alert>}
        <div className="max-w-40">
          <Button type="submit">Add endpoint</Button>
        </div>
      </form>
      {secret && (
        <Alert tone="info">
          Signing secret (shown once; store it now): <code data-testid="webhook-secret" className="font-mono">{secret}</code>
        </Alert>
      )}
      <ul className="space-y-3">
        {endpoints.map((ep) => (
          <WebhookRow key={ep.id} endpoint={ep} token={token} mode={mode} />
        ))}
        {endpoints.length === 0 && <li className="text-sm text-slate-500">No endpoints yet.</li>}
      </ul>
    </div>
  );
}
