'use client';

import { IdChip } from '../ui/copy-button';
import { isNameable, useNames } from '../orders/order-data';

/*
 * What an event is about, by name where the console knows one (a flow, a pharmacy, an experiment, the
 * approving provider), the id beside it, small and copyable. Event data holds ids and codes only (never
 * PHI), so nothing here reads a patient.
 */

const LABELS: Record<string, string> = {
  orderId: 'Order',
  pharmacyConnectionId: 'Pharmacy',
  submissionId: 'Submission',
  flowId: 'Flow',
  flowVersionId: 'Flow version',
  sessionId: 'Session',
  experimentId: 'Experiment',
  approvedBy: 'Approved by',
  variantKey: 'Arm',
  stepId: 'Step',
  reasonCode: 'Reason',
  externalOrderId: 'Store order',
};

type Names = ReturnType<typeof useNames>;
type Data = Record<string, unknown>;

/** The id values of events' data that the console can name. */
export const nameableIds = (events: { data: Data }[]) => events.flatMap((e) => Object.values(e.data).filter((v): v is string => typeof v === 'string' && isNameable(v)));

/** The named objects of one event, compact: "Flow Weight loss · Pharmacy Sunrise" (ids on hover and copy). */
export function EventAbout({ data, names }: { data: Data; names: Names }) {
  const named = Object.entries(data).filter(([, v]) => typeof v === 'string' && names.has(v));
  if (named.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {named.map(([k, v]) => (
        <li key={k} className="break-words">
          <span className="text-slate-500">{LABELS[k] ?? k}</span> <span className="font-medium" title={String(v)}>{names.get(String(v))!.name}</span>
        </li>
      ))}
    </ul>
  );
}

/** Every field of one event's data in words: the name beside each id the console knows, the id copyable. */
export function EventFields({ data }: { data: Data }) {
  const names = useNames(nameableIds([{ data }]));
  return (
    <dl data-testid="event-fields" className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {Object.entries(data).map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-500">{LABELS[k] ?? k}</dt>
          <dd className="min-w-0 break-words">
            {typeof v === 'string' && /^[a-z]+_[0-9a-z]{20,}$/.test(v) ? (
              <span className="inline-flex flex-wrap items-center gap-x-2">
                {names.get(v) && <span className="font-medium">{names.get(v)!.name}</span>}
                <IdChip id={v} />
              </span>
            ) : (
              <span className="font-mono text-xs">{v === null ? '—' : String(v)}</span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
