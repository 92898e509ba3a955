'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';

export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  status: 'enabled' | 'disabled';
  secretHint: string;
  lastDelivery: { eventType: string; status: string; at: string; responseCode: number | null } | null;
}

interface Delivery {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  lastError: string | null;
  createdAt: string;
}

export function WebhookRow({ endpoint, token, mode }: { endpoint: Endpoint; token: string; mode: string }) {
  const router = useRouter();
  const [result, setResult] = useState<string>();
  const [deliveries, setDeliveries] = useState<Delivery[]>();
  const auth = { token, mode };

  async function toggle() {
    await apiCall('PATCH', `/developer/webhooks/${endpoint.id}`, { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' }, auth);
    router.refresh();
  }
  async function sendTest() {
    const res = await apiCall<{ status: string; responseCode: number | null; lastError: string | null }>('POST', `/developer/webhooks/${endpoint.id}/test`, {}, auth);
    setResult(res.ok ? `Test ${res.data.status}${res.data.responseCode ? ` (HTTP ${res.data.responseCode})` : ''}${res.data.lastError ? `: ${res.data.lastError}` : ''}` : res.error?.message);
    await loadDeliveries();
  }
  async function loadDeliveries() {
    const res = await apiCall<Delivery[]>('GET', `/developer/webhooks/${endpoint.id}/deliveries`, undefined, auth);
    if (res.ok) setDeliveries(res.data);
  }

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-center gap-3">
        <span className="font-mono font-medium">{endpoint.url}</span>
        <span className={`rounded px-2 py-0.5 text-xs ${endpoint.status === 'enabled' ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}`}>{endpoint.status}</span>
        <span className="text-slate-500">{endpoint.events.length ? endpoint.events.join(', ') : 'all events'}</span>
        <span className="text-slate-400">secret {endpoint.secretHint}</span>
        <div className="ml-auto flex gap-3">
          <button type="button" onClick={toggle} className="text-indigo-700 hover:underline">
            {endpoint.status === 'enabled' ? 'Disable' : 'Enable'}
          </button>
          <button type="button" onClick={sendTest} disabled={endpoint.status !== 'enabled'} className="text-indigo-700 hover:underline disabled:text-slate-400">
            Send test
          </button>
          <button type="button" onClick={loadDeliveries} className="text-indigo-700 hover:underline">
            Delivery history
          </button>
        </div>
      </div>
      {result && <p role="status" className="mt-2 text-slate-700">{result}</p>}
      {deliveries && (
        <table className="mt-3 w-full text-left text-xs">
          <thead className="text-slate-500">
            <tr><th>Event</th><th>Status</th><th>Attempts</th><th>Response</th><th>Created</th></tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <tr key={d.id} data-testid="delivery-row" className="border-t border-slate-100">
                <td className="py-1 font-mono">{d.eventType}</td>
                <td>{d.status}</td>
                <td>{d.attempts}</td>
                <td>{d.responseCode ?? d.lastError ?? '—'}</td>
                <td>{new Date(d.createdAt).toLocaleString()}</td>
              </tr>
            ))}
            {deliveries.length === 0 && <tr><td colSpan={5} className="py-1 text-slate-500">No deliveries yet.</td></tr>}
          </tbody>
        </table>
      )}
    </li>
  );
}
