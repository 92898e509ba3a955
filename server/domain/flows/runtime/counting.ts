import { randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { flowStatsDaily, type flowSessions } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { namedStatement } from '@/server/db/named-sql';

type SessionRow = typeof flowSessions.$inferSelect;

/** The aggregate's counters (DESIGN decision 26). */
export type FlowCounter = 'views' | 'sessions' | 'qualified' | 'disqualified' | 'stepViews' | 'completes';

/**
 * Rows per (flow, day, version, step, arm): every session of a flow bumps the same flow-level row, so under
 * load one row would serialise them all on its lock until commit; a write picks one of these at random and
 * reads sum them (docs/decisions/flows.md, "Counting (decision 26)").
 */
export const STATS_SHARDS = 16;

/** The mark that counts a session as viewed: its `view` beacon or its first saved step, whichever comes first. */
export const VIEW_MARK = 'view';

/** What a count needs of its session (a row, or one being inserted in the same statement). */
export type CountedSession = Pick<SessionRow, 'id' | 'tenantId' | 'livemode' | 'flowId' | 'flowVersionId' | 'experimentId' | 'variantKey'>;

/** A count of a statement: the CTEs' names and its own values' placeholders are prefixed with `as` (several counts in one statement). */
export interface CountPlacement {
  /** Prefix of the two CTEs' names (`<as>_landed`, `<as>_bumped`) and the group of the count's values (`count` when none). */
  as?: string;
  /** A condition over the statement's other CTEs: the mark (and so the bump) is written only when it holds. */
  when?: SQL;
  /** The UTC day the bump lands on, as SQL yielding a date; the `s.day` value by default. */
  day?: SQL;
}

const p = sql.placeholder;
const own = (as: string | undefined, field: string) => `${as ?? 'count'}.${field}`;

/**
 * The two CTEs of a count, `landed` and `bumped`, for a statement that writes more (docs/decisions/performance.md,
 * "Public runtime: statements per request"): the mark's insert decides, and the aggregate's insert reads it, so the
 * row is bumped only when the mark landed, atomically with whatever else the statement writes. Written with
 * placeholders, for a statement rendered once (`namedStatement`): the session's and the moment's values are the
 * `s` group (`countedValues`), the count's own its `as` group (`countValues`).
 */
export function countCtes(counter: FlowCounter, placement: CountPlacement = {}): SQL {
  const { as, when } = placement;
  const column = sql.identifier(flowStatsDaily[counter].name);
  const landed = sql.identifier(as ? `${as}_landed` : 'landed');
  const bumped = sql.identifier(as ? `${as}_bumped` : 'bumped');
  const day = placement.day ?? sql`${p('s.day')}::date`;
  return sql`${landed} as (
      insert into flow_session_marks (session_id, mark, created_at) select ${p('s.sessionId')}::text, ${p(own(as, 'mark'))}::text, ${p('s.at')}::timestamptz${when ? sql` where ${when}` : sql``}
      on conflict do nothing returning 1
    ), ${bumped} as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, ${column})
      select ${p('s.tenantId')}, ${p('s.livemode')}, ${p('s.flowId')}, ${p('s.flowVersionId')}, ${day}, ${p(own(as, 'stepId'))},
        ${p('s.experimentId')}, ${p('s.arm')}, ${p(own(as, 'shard'))}::smallint, 1
      from ${landed}
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set ${column} = flow_stats_daily.${column} + 1
      returning 1
    )`;
}

/**
 * The `s` group of a statement of counts: the session's values and the moment's (`at` as ISO text, converted once
 * rather than by the driver at each of its places).
 */
export const countedValues = (session: CountedSession, at: Date) => {
  const iso = at.toISOString();
  return {
    sessionId: session.id,
    tenantId: session.tenantId,
    livemode: session.livemode,
    flowId: session.flowId,
    flowVersionId: session.flowVersionId,
    experimentId: session.experimentId ?? '',
    arm: session.variantKey ?? '',
    at: iso,
    // The UTC day the count lands on.
    day: iso.slice(0, 10),
  };
};

/**
 * One count's own group (`as`, or `count`): its mark, its step ('' for the flow-level row) and its aggregate
 * row's shard, random by default. Two counts of one statement that may bump the same row (both flow-level,
 * same day) must name different shards: one statement cannot update a row twice.
 */
export const countValues = (mark: string, stepId = '', shard = randomInt(STATS_SHARDS)) => ({ mark, stepId, shard });

/**
 * The UTC day the session was first counted as viewed (its `view` mark), else the `s.day` value: the verdict
 * of a run lands on its view's day, so every (day, version, arm) row holds qualified ≤ views and `qualifyRate`
 * stays ≤ 1 under any range (DESIGN decision 34; docs/decisions/flows.md, "Analytics that add up (decision 34)").
 */
export const viewDay = sql`coalesce((select (created_at at time zone 'UTC')::date from flow_session_marks where session_id = ${p('s.sessionId')}::text and mark = ${VIEW_MARK}), ${p('s.day')}::date)`;

const countOnceStatement = namedStatement((counter: FlowCounter) => sql`
    with ${countCtes(counter)}
    select (select count(*) from landed)::int as landed, (select count(*) from bumped)::int as bumped
  `);

/**
 * Counts `mark` for the session at most once: the mark's insert decides, and only the insert that lands bumps
 * the session's version/day/step/arm row of `flow_stats_daily`, in the caller's transaction. A retried beacon
 * or step save therefore answers like the first and counts nothing. `stepId` '' is the flow-level row.
 *
 * One statement (docs/decisions/performance.md, "Public runtime: statements per request"): the aggregate's insert reads the
 * mark's CTE, so it writes a row only when the mark landed, atomically even outside a transaction.
 */
export async function countOnce(q: Queryable, session: CountedSession, mark: string, counter: FlowCounter, at: Date, stepId = ''): Promise<boolean> {
  const result = await countOnceStatement.execute<{ landed: number }>(q, counter, { s: countedValues(session, at), count: countValues(mark, stepId) });
  return Number(result.rows[0]?.landed ?? 0) > 0;
}
