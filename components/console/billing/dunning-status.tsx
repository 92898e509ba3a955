import { card, formatCents, tableHead } from '../catalog/catalog-ui';
import { formatDate, formatDateTime } from '../ui/format';
import type { BillingHealth, DunningStage, StageChange } from './billing-types';
import { causeWords, isPastDue, STAGE_WORDS } from './stage-words';

const BADGE: Record<DunningStage, string> = {
  healthy: 'bg-emerald-100 text-emerald-800',
  recovered: 'bg-emerald-100 text-emerald-800',
  grace: 'bg-amber-100 text-amber-900',
  warning: 'bg-amber-200 text-amber-950',
  restricted: 'bg-red-100 text-red-800',
  suspended: 'bg-red-200 text-red-900',
};

function List({ title, items }: { title: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </div>
  );
}

function History({ changes }: { changes: StageChange[] }) {
  if (!changes.length) return <p className="text-sm text-slate-600">No payment problems so far.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[28rem] text-left text-sm">
        <caption className="sr-only">Billing stage changes, newest first</caption>
        <thead className={tableHead}>
          <tr>
            <th scope="col" className="py-1 pr-4 font-semibold">When</th>
            <th scope="col" className="py-1 pr-4 font-semibold">Change</th>
            <th scope="col" className="py-1 font-semibold">Cause</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {changes.map((c, i) => (
            <tr key={`${c.at}-${i}`}>
              <td className="py-1.5 pr-4 whitespace-nowrap text-slate-700">{formatDateTime(c.at)}</td>
              <td className="py-1.5 pr-4 text-slate-900">
                {STAGE_WORDS[c.from].label} → {STAGE_WORDS[c.to].label}
              </td>
              <td className="py-1.5 text-slate-700">{causeWords(c.cause)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Billing health (the dunning stage) in plain words: what still works, what is paused, when the next step comes, and the history. */
export function DunningStatus({ health, history }: { health: BillingHealth; history: StageChange[] }) {
  const words = STAGE_WORDS[health.stage];
  const pastDue = isPastDue(health.stage);
  return (
    <section aria-labelledby="billing-health" className={`${card} space-y-4`}>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="billing-health" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Billing health
        </h2>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${BADGE[health.stage]}`} data-testid="billing-stage">
          {words.label}
        </span>
        <span className="text-xs text-slate-500">Routing decision: {health.decision}</span>
      </div>
      <p className="text-sm text-slate-700">{words.summary}</p>
      {pastDue && (
        <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Amount due</dt>
            <dd className="mt-0.5 text-lg font-semibold tabular-nums text-slate-900" data-testid="billing-amount-due">
              {formatCents(health.amountDueCents)}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Failed attempts</dt>
            <dd className="mt-0.5 text-lg font-semibold tabular-nums text-slate-900">{health.attemptCount}</dd>
          </div>
          <div>
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">Next step</dt>
            <dd className="mt-0.5 text-sm text-slate-900" data-testid="billing-next-step">
              {words.next && health.nextActionAt ? `${formatDate(health.nextActionAt)}: ${words.next}` : 'None scheduled: paying restores everything'}
            </dd>
          </div>
        </dl>
      )}
      {pastDue && (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <List title="Still works" items={words.works} />
          <List title="Paused until paid" items={words.paused} />
        </div>
      )}
      {health.graceExtended && <p className="text-sm text-slate-600">Support has used this account’s one-time grace extension (7 more days before each step).</p>}
      <div className="space-y-2">
        <h3 className="text-sm font-semibold text-slate-900">History</h3>
        <History changes={history} />
      </div>
    </section>
  );
}
