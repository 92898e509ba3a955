'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { LIST_INPUT } from '../catalog/catalog-types';
import { QueryError } from '../ui/query-state';
import type { DraftDocument } from './flow-types';

/** The select's id: the publish refusal's "Settings → Protocol" link lands on it. */
export const PROTOCOL_FIELD_ID = 'flow-protocol';
export const PROTOCOLS_HREF = '/products#protocols';

type Settings = DraftDocument['settings'];

const control =
  'mt-1 block w-full max-w-xl rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

/**
 * The flow's protocol (`settings.protocolId`): what a provider's approval of a patient orders. A native select
 * of this mode's protocols by name; left empty, the approved questionnaire's own protocol applies, and when
 * it has none the flow cannot be published, which the hint says before Publish does.
 */
export function FlowProtocolSetting({ settings, onChange }: { settings: Settings; onChange: (settings: Settings) => void }) {
  const trpc = useTRPC();
  const protocols = useQuery(trpc.protocols.listProtocols.queryOptions(LIST_INPUT));
  const products = useQuery(trpc.products.listProducts.queryOptions(LIST_INPUT));
  const versions = useQuery(trpc.intake.questionnaireVersions.queryOptions({ key: settings.questionnaireKey }));
  const all = protocols.data ?? [];
  const byId = new Map(all.map((p) => [p.id, p]));
  const productName = new Map((products.data ?? []).map((p) => [p.id, p.name]));
  const approved = versions.data?.filter((v) => v.status === 'approved').sort((x, y) => y.version - x.version)[0];
  const inheritedId = approved?.document.protocolId;
  const inherited = inheritedId ? byId.get(inheritedId) : undefined;
  const chosenId = settings.protocolId ?? '';
  const chosen = chosenId ? byId.get(chosenId) : undefined;
  const effective = chosen ?? (chosenId ? undefined : inherited);
  const offered = all.filter((p) => p.active || p.id === chosenId);
  const missing = !chosenId && !inheritedId && versions.isSuccess;

  function choose(id: string) {
    const { protocolId: _previous, ...rest } = settings;
    onChange(id ? { ...rest, protocolId: id } : rest);
  }

  return (
    <div className="space-y-2">
      <label htmlFor={PROTOCOL_FIELD_ID} className="block text-sm font-medium text-slate-700">
        Protocol
      </label>
      <p id={`${PROTOCOL_FIELD_ID}-hint`} className="text-xs text-slate-600">
        What a provider’s approval of a patient orders: the products, each with its quantity, directions and refills.
      </p>
      <select
        id={PROTOCOL_FIELD_ID}
        value={chosenId}
        onChange={(e) => choose(e.target.value)}
        aria-describedby={`${PROTOCOL_FIELD_ID}-hint${missing ? ` ${PROTOCOL_FIELD_ID}-missing` : ''}`}
        aria-invalid={missing || undefined}
        className={control}
      >
        <option value="">{inheritedId ? `The questionnaire’s protocol${inherited ? ` (${inherited.name})` : ''}` : protocols.isPending ? 'Loading protocols…' : 'Choose a protocol'}</option>
        {offered.map((p) => (
          <option key={p.id} value={p.id}>
            {p.active ? p.name : `${p.name} (inactive)`}
          </option>
        ))}
        {chosenId && protocols.isSuccess && !chosen && <option value={chosenId}>{chosenId} (not a protocol of this mode)</option>}
      </select>
      {missing && (
        <p id={`${PROTOCOL_FIELD_ID}-missing`} data-testid="protocol-missing" className="text-sm text-amber-900">
          Required before publishing: questionnaire {settings.questionnaireKey} names no protocol, so choose the one this flow prescribes.
        </p>
      )}
      {effective && (
        <ul data-testid="protocol-items" aria-label={`Items of ${effective.name}`} className="space-y-0.5 text-sm text-slate-700">
          {effective.items.map((it, i) => (
            <li key={i} className="break-words">
              {productName.get(it.productId) ?? it.productId} × {it.quantity} · {it.sig} · {it.refills} refill{it.refills === 1 ? '' : 's'}
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm">
        {protocols.isSuccess && all.every((p) => !p.active) && <span className="text-slate-600">No active protocol in this mode yet. </span>}
        <Link href={PROTOCOLS_HREF} className="font-medium text-indigo-700 underline">
          Create a protocol
        </Link>
        <span className="text-slate-600"> on the Products page.</span>
      </p>
      {protocols.isError && <QueryError error={protocols.error} title="The protocols could not be read." />}
    </div>
  );
}
