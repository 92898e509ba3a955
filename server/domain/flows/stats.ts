import { and, asc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { flows, flowStatsDaily, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import type { FlowStepShape } from '@/server/domain/flows/shared/shapes';

/**
 * Flow stats (spec "Flow objects", DESIGN decision 26) read from the per-day aggregate the runtime bumps in
 * the transaction of each counted mark: a read sums O(days × steps × shards) rows, never the sessions.
 */

export interface StatsRange {
  from?: string;
  to?: string;
}

function assertRange(range: StatsRange) {
  if (range.from && range.to && range.from > range.to) throw errors.validation('from must not be after to.', 'from');
}

const inScope = (scope: Scope, flowId: string, range: StatsRange, versionId?: string): SQL =>
  and(
    eq(flowStatsDaily.tenantId, scope.tenantId),
    eq(flowStatsDaily.livemode, scope.livemode),
    eq(flowStatsDaily.flowId, flowId),
    range.from ? gte(flowStatsDaily.day, range.from) : undefined,
    range.to ? lte(flowStatsDaily.day, range.to) : undefined,
    versionId ? eq(flowStatsDaily.flowVersionId, versionId) : undefined,
  )!;

const total = (column: AnyPgColumn) => sql<number>`coalesce(sum(${column}), 0)::int`;

/** The steps byStep lists: of the named version (which must be this flow's), else the active one, else the draft. */
async function stepsOf(db: Db, scope: Scope, flow: typeof flows.$inferSelect, versionId?: string): Promise<FlowStepShape[]> {
  const id = versionId ?? flow.activeVersionId;
  if (!id) return flow.draft.steps;
  const version = await scoped(db, scope).get(flowVersions, id);
  if (!version || version.flowId !== flow.id) throw errors.notFound('flow version', id);
  return version.document.steps;
}

/**
 * A step's row of the funnel (issue 50 item 5): `completes` as DESIGN decision 34 counts them, and `reached`,
 * the sessions the step was shown to (its `step_viewed` mark), never fewer than completed it, so
 * `reached - completes` is the drop-off at that step and is never negative, even for a session whose page sent
 * no beacon. Both are counts of real sessions: neither can exceed what happened.
 */
function reachedAndCompleted(stepId: string, row: { completes: number; stepViews: number } | undefined) {
  const completes = row?.completes ?? 0;
  return { stepId, reached: Math.max(row?.stepViews ?? 0, completes), completes };
}

/** GET /flows/{id}/stats: totals over the range (and version), byStep one row per step in step order. */
export async function flowStats(db: Db, scope: Scope, flowId: string, query: StatsRange & { versionId?: string }) {
  assertRange(query);
  const flow = await scoped(db, scope).require(flows, flowId, 'flow');
  const steps = await stepsOf(db, scope, flow, query.versionId);
  const rows = await db
    .select({
      stepId: flowStatsDaily.stepId,
      views: total(flowStatsDaily.views),
      sessions: total(flowStatsDaily.sessions),
      qualified: total(flowStatsDaily.qualified),
      disqualified: total(flowStatsDaily.disqualified),
      completes: total(flowStatsDaily.completes),
      stepViews: total(flowStatsDaily.stepViews),
    })
    .from(flowStatsDaily)
    .where(inScope(scope, flow.id, query, query.versionId))
    .groupBy(flowStatsDaily.stepId);
  const flowRow = rows.find((r) => r.stepId === '');
  const byId = new Map(rows.map((r) => [r.stepId, r]));
  const views = flowRow?.views ?? 0;
  const qualified = flowRow?.qualified ?? 0;
  return {
    views,
    sessions: flowRow?.sessions ?? 0,
    qualified,
    disqualified: flowRow?.disqualified ?? 0,
    qualifyRate: views === 0 ? 0 : qualified / views,
    byStep: steps.map((s) => reachedAndCompleted(s.id, byId.get(s.id))),
  };
}

const DAY_MS = 86_400_000;
export const MAX_DAILY_DAYS = 366;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Console charts: flow-level counters per UTC day over the range (default the 30 days ending today), quiet days as 0. */
export async function flowDailySeries(db: Db, scope: Scope, flowId: string, range: StatsRange, today: Date) {
  assertRange(range);
  const to = range.to ?? dayOf(today.getTime());
  const from = range.from ?? dayOf(Date.parse(to) - 29 * DAY_MS);
  if (from > to) throw errors.validation('from must not be after to.', 'from');
  if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAILY_DAYS) throw errors.validation(`At most ${MAX_DAILY_DAYS} days at a time.`, 'from');
  const flow = await scoped(db, scope).require(flows, flowId, 'flow');
  const rows = await db
    .select({
      day: flowStatsDaily.day,
      views: total(flowStatsDaily.views),
      sessions: total(flowStatsDaily.sessions),
      qualified: total(flowStatsDaily.qualified),
      disqualified: total(flowStatsDaily.disqualified),
    })
    .from(flowStatsDaily)
    .where(and(inScope(scope, flow.id, { from, to }), eq(flowStatsDaily.stepId, '')))
    .groupBy(flowStatsDaily.day)
    .orderBy(asc(flowStatsDaily.day));
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const series = [];
  for (let ms = Date.parse(from); ms <= Date.parse(to); ms += DAY_MS) {
    const day = dayOf(ms);
    const r = byDay.get(day);
    series.push({ day, views: r?.views ?? 0, sessions: r?.sessions ?? 0, qualified: r?.qualified ?? 0, disqualified: r?.disqualified ?? 0 });
  }
  return series;
}
