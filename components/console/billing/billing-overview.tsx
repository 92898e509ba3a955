'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { Loading, QueryError } from '../ui/query-state';
import { DunningStatus } from './dunning-status';
import { PlanChoices } from './plan-choices';
import { PlanSummary } from './plan-summary';
import { ReturnNotice, type BillingReturn } from './return-notice';
import { TestClock } from './test-clock';

// After Stripe's checkout the plan moves when its webhook lands, a moment later: look again for a while.
const CONFIRM_POLL_MS = 3_000;
const CONFIRM_WINDOW_MS = 30_000;

/** The Billing page for owners and admins: the plan and subscription, billing health, and the plans to buy. */
export function BillingOverview({ back }: { back: BillingReturn }) {
  const trpc = useTRPC();
  const [returnedAt] = useState(() => Date.now());
  const awaitingConfirmation = back.checkout === 'success';
  const billing = useQuery({
    ...trpc.billing.get.queryOptions({}),
    refetchInterval: () => (awaitingConfirmation && Date.now() - returnedAt < CONFIRM_WINDOW_MS ? CONFIRM_POLL_MS : false),
  });
  return (
    <div className="space-y-6">
      <ReturnNotice back={back} plan={billing.data?.plan} />
      {billing.isPending && <Loading label="Loading billing…" />}
      {billing.isError && <QueryError error={billing.error} title="Billing could not be loaded." />}
      {billing.data && (
        <>
          <PlanSummary billing={billing.data} />
          <DunningStatus health={billing.data.health} history={billing.data.stageHistory} />
          {billing.data.testClock && <TestClock advancedDays={billing.data.testClock.advancedDays} />}
          <PlanChoices billing={billing.data} />
        </>
      )}
    </div>
  );
}
