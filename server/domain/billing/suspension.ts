import { sql, type SQL } from 'drizzle-orm';
import { billingAccounts } from '@/db/schema';
import type { ScopedTable } from '@/server/db/scoped';
import { dunningStageAt } from './stages';

/**
 * How long after the first failed payment an account is suspended, read off the dunning clock of stages.ts
 * (so the schedule lives in one place): the first moment `dunningStageAt` answers `suspended`.
 */
function suspendedAfterMs(graceExtended: boolean): number {
  const start = new Date(0);
  let at = start;
  for (;;) {
    const { nextActionAt } = dunningStageAt(start, graceExtended, at);
    if (!nextActionAt) return at.getTime();
    at = nextActionAt;
  }
}

const AFTER_MS = { plain: suspendedAfterMs(false), extended: suspendedAfterMs(true) };

/**
 * A condition an insert can carry so that order creation costs no extra statement (the order is written by
 * one statement, docs/decisions/billing.md "Billing guards cost no statement"): true unless the scope's account is
 * suspended at the moment `suspensionValues` was taken — the same judgement as `effectiveStage`, which is
 * what explains a refusal afterwards.
 */
export const notSuspended = (own: (t: ScopedTable) => SQL) => sql`not exists (
  select 1 from ${billingAccounts} where ${own(billingAccounts)} and (
    (${billingAccounts.firstFailedAt} is null and ${billingAccounts.stage} = 'suspended')
    or ${billingAccounts.firstFailedAt} <= case when ${billingAccounts.graceExtended}
      then ${sql.placeholder('billingSuspendedIfFailedByExtended')}::timestamptz
      else ${sql.placeholder('billingSuspendedIfFailedBy')}::timestamptz end
  )
)`;

/** The placeholders of `notSuspended` at `at`. */
export const suspensionValues = (at: Date) => ({
  billingSuspendedIfFailedBy: new Date(at.getTime() - AFTER_MS.plain).toISOString(),
  billingSuspendedIfFailedByExtended: new Date(at.getTime() - AFTER_MS.extended).toISOString(),
});
