'use client';

import { BusyButton, card } from '../catalog/catalog-ui';
import { formatDate } from '../ui/format';
import { QueryError } from '../ui/query-state';
import type { Billing } from './billing-types';
import { planIncludes, planName, priceWords, statusWords } from './plan-words';
import { usePortal } from './redirect-mutations';

function Row({ term, children, testId }: { term: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{term}</dt>
      <dd className="mt-0.5 text-sm text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** The plan the clinic is on, what it costs, the subscription's state and period, and the provider's portal. */
export function PlanSummary({ billing }: { billing: Billing }) {
  const portal = usePortal();
  const { period } = billing;
  // The portal manages an existing customer (card, overdue invoice, cancellation); before a first checkout there is none.
  const hasSubscription = billing.status !== 'none';
  return (
    <section aria-labelledby="billing-plan" className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="billing-plan" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            Current plan
          </h2>
          <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid="billing-plan">
            {planName(billing.plan)}
          </p>
          <p className="text-sm text-slate-600">{planIncludes(billing.plan)}</p>
        </div>
        {hasSubscription && (
          <BusyButton variant="secondary" busy={portal.isPending || portal.isSuccess} busyLabel="Opening the billing portal…" onClick={() => portal.mutate({})}>
            Manage billing
          </BusyButton>
        )}
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Row term="Price" testId="billing-price">
          {priceWords(billing.priceCents)}
        </Row>
        <Row term="Subscription" testId="billing-status">
          {statusWords(billing.status)}
        </Row>
        <Row term="Current period" testId="billing-period">
          {period ? `${formatDate(period.start)} – ${formatDate(period.end)}` : 'None'}
        </Row>
        <Row term="Next">
          {!period
            ? 'Nothing scheduled'
            : billing.cancelAtPeriodEnd
              ? `Ends on ${formatDate(period.end)}; the plan returns to Free`
              : billing.status === 'active'
                ? `Renews on ${formatDate(period.end)}`
                : '—'}
        </Row>
      </dl>
      <p className="mt-4 text-xs text-slate-500">
        {billing.livemode
          ? billing.provider === 'stripe'
            ? 'Payments are handled by Stripe; card details never reach Fulfillment Rail.'
            : 'Payments on this deployment are simulated: no card is charged.'
          : 'Sandbox billing is a rehearsal on the simulated provider: nothing is charged and your live plan never changes.'}
      </p>
      {portal.isError && (
        <div className="mt-3">
          <QueryError error={portal.error} title="The billing portal could not be opened." />
        </div>
      )}
    </section>
  );
}
