'use client';

import { BusyButton, card } from '../catalog/catalog-ui';
import { QueryError } from '../ui/query-state';
import type { Billing } from './billing-types';
import { isUpgrade, planIncludes, planName, priceWords } from './plan-words';
import { useCheckout } from './redirect-mutations';

/** The self-serve plans with their prices; a button starts the provider's checkout for one. */
export function PlanChoices({ billing }: { billing: Billing }) {
  const checkout = useCheckout();
  const busyPlan = checkout.isPending || checkout.isSuccess ? checkout.variables?.plan : undefined;
  return (
    <section aria-labelledby="billing-plans" className="space-y-3">
      <h2 id="billing-plans" className="text-lg font-semibold text-slate-900">
        Plans
      </h2>
      <ul className="grid grid-cols-1 gap-4 md:grid-cols-3">
        {billing.checkoutPlans.map(({ plan, priceCents }) => {
          const current = plan === billing.plan;
          const verb = isUpgrade(billing.plan, plan) ? 'Upgrade to' : 'Switch to';
          return (
            <li key={plan} className={`${card} flex flex-col gap-2 ${current ? 'ring-2 ring-indigo-600' : ''}`} data-testid={`plan-${plan}`}>
              <h3 className="text-base font-semibold text-slate-900">{planName(plan)}</h3>
              <p className="text-xl font-semibold tabular-nums text-slate-900">{priceWords(priceCents)}</p>
              <p className="flex-1 text-sm text-slate-600">{planIncludes(plan)}</p>
              {current ? (
                <p className="text-sm font-semibold text-indigo-700">Your current plan</p>
              ) : (
                <BusyButton busy={busyPlan === plan} busyLabel="Opening checkout…" disabled={busyPlan !== undefined} onClick={() => checkout.mutate({ plan })}>
                  {verb} {planName(plan)}
                </BusyButton>
              )}
            </li>
          );
        })}
      </ul>
      <p className="text-xs text-slate-500">Enterprise (no cap, custom terms) is arranged with our team rather than bought here.</p>
      {checkout.isError && <QueryError error={checkout.error} title="The checkout could not be started." />}
    </section>
  );
}
