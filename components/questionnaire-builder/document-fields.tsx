'use client';

import { useQuery } from '@tanstack/react-query';
import { LIST_INPUT } from '@/components/console/catalog/catalog-types';
import { useTRPC } from '@/web/trpc/client';
import type { Draft } from './draft';
import { SelectInput, TextInput } from './fields';
import { FieldProblems } from './problems';

/**
 * The questionnaire as a whole: its key (fixed when this is the next version of an existing one), title,
 * description for the patient, and the protocol an approved submission orders.
 */
export function DocumentFields({ draft, onChange, locked, canPickProtocol }: { draft: Draft; onChange: (d: Draft) => void; locked: boolean; canPickProtocol: boolean }) {
  const pin = (field: string) => ({ uid: 'doc', field });
  const set = (k: 'key' | 'title' | 'description' | 'protocolId', v: string) => onChange({ ...draft, [k]: v });
  return (
    <section aria-labelledby="qb-about" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="qb-about" className="text-lg font-semibold">
        About the questionnaire
      </h2>
      <FieldProblems uid="doc" />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput {...pin('title')} label="Title" hint="The heading patients see" maxLength={200} value={draft.title} onChange={(v) => set('title', v)} />
        {locked ? (
          <div className="min-w-0">
            <p className="block text-sm font-medium text-slate-700">Key</p>
            <p className="mt-1 text-sm text-slate-800">
              <code className="font-mono break-all">{draft.key}</code>: publishing makes its next version.
            </p>
            <FieldProblems {...pin('key')} />
          </div>
        ) : (
          <TextInput
            {...pin('key')}
            label="Key"
            hint="Lowercase letters, digits, _ or -; every version of the questionnaire shares it"
            maxLength={64}
            value={draft.key}
            onChange={(v) => set('key', v)}
          />
        )}
      </div>
      <TextInput {...pin('description')} label="Description" hint="Shown to patients under the title" optional multiline maxLength={2000} value={draft.description} onChange={(v) => set('description', v)} />
      <ProtocolField draft={draft} onChange={(v) => set('protocolId', v)} canPick={canPickProtocol} />
      <FieldProblems {...pin('items')} />
      <FieldProblems {...pin('rules')} />
    </section>
  );
}

function ProtocolField({ draft, onChange, canPick }: { draft: Draft; onChange: (v: string) => void; canPick: boolean }) {
  const trpc = useTRPC();
  const protocols = useQuery({ ...trpc.protocols.listProtocols.queryOptions(LIST_INPUT), enabled: canPick });
  const hint = 'What an approved submission orders; the provider approves it with the questions';
  if (!canPick || !protocols.data) {
    return (
      <div className="min-w-0">
        <p className="block text-sm font-medium text-slate-700">Protocol</p>
        <p className="mt-1 text-sm text-slate-700">{draft.protocolId ? <code className="font-mono text-xs break-all">{draft.protocolId}</code> : 'None'}{canPick && protocols.isPending ? ' (loading the protocols…)' : ''}</p>
        <FieldProblems uid="doc" field="protocolId" />
      </div>
    );
  }
  const listed = protocols.data.some((p) => p.id === draft.protocolId);
  return (
    <SelectInput uid="doc" field="protocolId" label="Protocol" hint={hint} value={draft.protocolId} onChange={onChange} className="max-w-xl">
      <option value="">None</option>
      {draft.protocolId && !listed && <option value={draft.protocolId}>{draft.protocolId}</option>}
      {protocols.data.map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
          {p.active ? '' : ' (inactive)'}
        </option>
      ))}
    </SelectInput>
  );
}
