import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { flowSessionMarks, flowStatsDaily, type flowSessions } from '@/db/schema';
import type { Tx } from '@/server/db/types';

type SessionRow = typeof flowSessions.$inferSelect;

/** The aggregate's counters (DESIGN decision 26). */
export type FlowCounter = 'views' | 'sessions' | 'qualified' | 'disqualified' | 'stepViews' | 'completes';

/**
 * Rows per (flow, day, version, step, arm): every session of a flow bumps the same flow-level row, so under
 * load one row would serialise them all on its lock until commit; a write picks one of these at random and
 * reads sum them (docs/decisions.md, Issue 23: flows benchmark).
 */
export const STATS_SHARDS = 16;

/** The UTC day a count lands on. */
export const statsDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Counts `mark` for the session at most once: the mark's insert decides, and only the insert that lands bumps
 * the session's version/day/step/arm row of `flow_stats_daily`, in the caller's transaction. A retried beacon
 * or step save therefore answers like the first and counts nothing. `stepId` '' is the flow-level row.
 */
export async function countOnce(tx: Tx, session: SessionRow, mark: string, counter: FlowCounter, at: Date, stepId = ''): Promise<boolean> {
  const landed = await tx.insert(flowSessionMarks).values({ sessionId: session.id, mark, createdAt: at }).onConflictDoNothing().returning({ mark: flowSessionMarks.mark });
  if (landed.length === 0) return false;
  const column = flowStatsDaily[counter];
  await tx
    .insert(flowStatsDaily)
    .values({
      tenantId: session.tenantId,
      livemode: session.livemode,
      flowId: session.flowId,
      flowVersionId: session.flowVersionId,
      day: statsDay(at),
      stepId,
      experimentId: session.experimentId ?? '',
      arm: session.variantKey ?? '',
      shard: randomInt(STATS_SHARDS),
      [counter]: 1,
    })
    .onConflictDoUpdate({
      target: [flowStatsDaily.flowId, flowStatsDaily.day, flowStatsDaily.flowVersionId, flowStatsDaily.stepId, flowStatsDaily.experimentId, flowStatsDaily.arm, flowStatsDaily.shard],
      set: { [counter]: sql`${column} + 1` },
    });
  return true;
}
