'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Catalog } from './catalog-types';
import { BusyButton, card, ErrorAlert, SelectField, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';
import { PharmacyRow } from './pharmacy-row';
import type { Pharmacy } from './pharmacy-types';

/** "ca, ny tx" → ['CA', 'NY', 'TX'] */
const parseStates = (text: string) => [...new Set(text.split(/[\s,;]+/).map((s) => s.trim().toUpperCase()).filter(Boolean))];

export function PharmacyManager({
  pharmacies,
  catalogs,
  usStates,
  token,
  mode,
}: {
  pharmacies: Pharmacy[];
  catalogs: Record<string, Catalog[]>;
  usStates: readonly string[];
  token: string;
  mode: string;
}) {
  const router = useRouter();
  const live = mode === 'live';
  const [name, setName] = useState('');
  const [states, setStates] = useState('');
  const [adapter, setAdapter] = useState<'simulated' | 'http'>('simulated');
  const [baseUrl, setBaseUrl] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [created, setCreated] = useState<{ name: string; secret: string }>();

  async function create(e: React.FormEvent) {
    e.preventDefault();
    const codes = parseStates(states);
    const unknown = codes.filter((c) => !usStates.includes(c));
    if (codes.length === 0) return setError({ message: 'List at least one state the pharmacy ships to, e.g. CA, NY.' });
    if (unknown.length) return setError({ message: `Not a US state code: ${unknown.join(', ')}.` });
    setBusy(true);
    const body = {
      name,
      adapter,
      settings: adapter === 'http' ? { baseUrl: baseUrl.trim() } : {},
      states: codes,
      status: 'enabled',
    };
    const res = await apiCall<Pharmacy & { secret: string }>('POST', '/pharmacies', body, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The pharmacy could not be connected.' });
    setError(undefined);
    setCreated({ name: res.data.name, secret: res.data.secret });
    setName('');
    setStates('');
    setBaseUrl('');
    router.refresh();
  }

  return (
    <div className="space-y-6">
      <form onSubmit={create} className={`${card} space-y-4`} aria-labelledby="new-pharmacy">
        <h2 id="new-pharmacy" className="font-semibold">Connect a pharmacy</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Pharmacy name" name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
          <Field label="States shipped to" name="states" placeholder="CA, NY, TX" value={states} onChange={(e) => setStates(e.target.value)} required />
          {live ? (
            <SelectField label="Adapter" value={adapter} onChange={(e) => setAdapter(e.target.value as 'simulated' | 'http')}>
              <option value="simulated">Simulated</option>
              <option value="http">HTTP (signed JSON over HTTPS)</option>
            </SelectField>
          ) : (
            <p className="self-end text-sm text-slate-500">Sandbox connections use the simulated pharmacy adapter.</p>
          )}
          {live && adapter === 'http' && (
            <Field label="Base URL" name="baseUrl" type="url" placeholder="https://pharmacy.example/api" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required />
          )}
        </div>
        {error && <ErrorAlert error={error} />}
        <BusyButton type="submit" busy={busy} busyLabel="Connecting…">Connect pharmacy</BusyButton>
      </form>
      {created && (
        <div role="status" className="rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm text-sky-800">
          Connected {created.name}. Its signing secret is shown once; store it now:{' '}
          <code data-testid="pharmacy-secret" className="font-mono break-all">{created.secret}</code>
        </div>
      )}
      <ul className="space-y-4">
        {pharmacies.map((p) => (
          <PharmacyRow key={p.id} pharmacy={p} catalogs={catalogs[p.id] ?? []} token={token} mode={mode} />
        ))}
        {pharmacies.length === 0 && <li className="text-sm text-slate-500">No pharmacies connected in {mode} yet.</li>}
      </ul>
    </div>
  );
}
