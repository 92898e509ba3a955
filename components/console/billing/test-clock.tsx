'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, card, formatDays } from '../catalog/catalog-ui';
import { Field } from '../ui/field';
import { QueryError } from '../ui/query-state';

/**
 * Sandbox only: the billing test clock (DESIGN decision 35). Moving it runs the renewals and dunning steps that
 * fall due, so a clinic can rehearse what a failed payment does without waiting weeks; live billing has none.
 */
export function TestClock({ advancedDays }: { advancedDays: number }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [days, setDays] = useState('7');
  const advance = useMutation(
    trpc.billing.advanceTestClock.mutationOptions({
      onSuccess: (billing) => qc.setQueryData(trpc.billing.get.queryKey({}), billing),
    }),
  );
  function submit(e: React.FormEvent) {
    e.preventDefault();
    advance.mutate({ days: Number(days) });
  }
  return (
    <section aria-labelledby="billing-test-clock" className={`${card} space-y-3`}>
      <h2 id="billing-test-clock" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
        Sandbox test clock
      </h2>
      <p className="text-sm text-slate-700" data-testid="billing-test-clock">
        {advancedDays === 0 ? 'Not moved yet.' : `Moved ${formatDays(advancedDays)} ahead.`} Moving it forward runs the renewals and dunning steps that fall due, as if that time had
        passed. Check out with the card that declines renewals to rehearse a failed payment.
      </p>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3">
        <div className="w-40">
          <Field label="Days to move forward" name="days" type="number" min={1} max={365} step={1} required value={days} onChange={(e) => setDays(e.target.value)} />
        </div>
        <BusyButton type="submit" busy={advance.isPending} busyLabel="Moving the clock…">
          Move the clock
        </BusyButton>
      </form>
      {advance.isError && <QueryError error={advance.error} title="The clock was not moved." />}
    </section>
  );
}
