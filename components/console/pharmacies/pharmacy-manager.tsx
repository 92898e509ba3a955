'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal, FieldMessage } from '../catalog/catalog-errors';
import { LIST_INPUT } from '../catalog/catalog-types';
import { BusyButton, card, SelectField } from '../catalog/catalog-ui';
import { CopyButton } from '../ui/copy-button';
import { Field } from '../ui/field';
import { PharmacyRow } from './pharmacy-row';
import { Loading, QueryError } from '../ui/query-state';

/** "ca, ny tx" → ['CA', 'NY', 'TX']; the API checks each code and names a bad one. */
const parseStates = (text: string) => [...new Set(text.split(/[\s,;]+/).map((s) => s.trim().toUpperCase()).filter(Boolean))];
const FIELDS = ['name', 'states', 'settings', 'adapter'] as const;

export function PharmacyManager({ mode }: { mode: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const pharmacies = useQuery(trpc.pharmacies.listPharmacies.queryOptions(LIST_INPUT));
  const live = mode === 'live';
  const [name, setName] = useState('');
  const [states, setStates] = useState('');
  const [adapter, setAdapter] = useState<'simulated' | 'http'>('simulated');
  const [baseUrl, setBaseUrl] = useState('');
  const create = useMutation(
    trpc.pharmacies.createPharmacy.mutationOptions({
      onSuccess: () => {
        setName('');
        setStates('');
        setBaseUrl('');
        return qc.invalidateQueries({ queryKey: trpc.pharmacies.listPharmacies.queryKey() });
      },
    }),
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // An http pharmacy starts disabled: it takes live orders once the clinic has seen its protocol check pass and enables it.
    const http = adapter === 'http';
    create.mutate({ name, adapter, settings: http ? { baseUrl: baseUrl.trim() } : {}, states: parseStates(states), status: http ? 'disabled' : 'enabled' });
  }

  const created = create.data;
  return (
    <div className="space-y-6">
      <form onSubmit={submit} className={`${card} space-y-4`} aria-labelledby="new-pharmacy">
        <h2 id="new-pharmacy" className="font-semibold">Connect a pharmacy</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Field label="Pharmacy name" name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
            <FieldMessage error={create.error} field="name" />
          </div>
          <div>
            <Field label="States shipped to" name="states" placeholder="CA, NY, TX" value={states} onChange={(e) => setStates(e.target.value)} required />
            <FieldMessage error={create.error} field="states" />
          </div>
          {live ? (
            <div>
              <SelectField label="Adapter" value={adapter} onChange={(e) => setAdapter(e.target.value as 'simulated' | 'http')}>
                <option value="simulated">Simulated</option>
                <option value="http">HTTP (signed JSON over HTTPS)</option>
              </SelectField>
              <FieldMessage error={create.error} field="adapter" />
            </div>
          ) : (
            <p className="self-end text-sm text-slate-500">Sandbox connections use the simulated pharmacy adapter.</p>
          )}
          {live && adapter === 'http' && (
            <div>
              <Field label="Base URL" name="baseUrl" type="url" placeholder="https://pharmacy.example/api" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required />
              <FieldMessage error={create.error} field="settings" />
            </div>
          )}
        </div>
        <ApiRefusal error={create.error} fields={FIELDS} />
        <BusyButton type="submit" busy={create.isPending} busyLabel="Connecting…">Connect pharmacy</BusyButton>
      </form>
      {created?.secret && !create.isPending && (
        <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-semibold">Connected {created.name}. Copy its signing secret now: it is shown only once.</p>
          <p>It signs our requests to the pharmacy and verifies its callbacks; from now on the console shows only its last characters.</p>
          {created.adapter === 'http' && <p>The pharmacy is connected disabled: run its protocol check below, and enable it once every check passes.</p>}
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <code data-testid="pharmacy-secret" className="min-w-0 break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900">{created.secret}</code>
            <CopyButton value={created.secret} label="Copy pharmacy signing secret" />
          </div>
        </div>
      )}
      {pharmacies.isPending && <Loading label="Loading pharmacies…" />}
      {pharmacies.isError && <QueryError error={pharmacies.error} title="The pharmacies could not be read." />}
      {pharmacies.data && (
        <ul className="space-y-4">
          {pharmacies.data.map((p) => (
            <PharmacyRow key={p.id} pharmacy={p} />
          ))}
          {pharmacies.data.length === 0 && <li className="text-sm text-slate-500">No pharmacies connected in {mode} yet.</li>}
        </ul>
      )}
    </div>
  );
}
