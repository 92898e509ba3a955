'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { stepHeading } from '@/server/domain/flows/shared/shapes';
import { Loading, QueryError } from '../ui/query-state';
import { fillDays, rangeOf, RANGES, type RangeDays } from './analytics-range';
import { FunnelChart, QualifyRateChart, StatTiles, ViewsSessionsChart } from './flow-charts';

/**
 * A flow's funnel (unique completions per step), qualify rate per day and views and sessions per day, over a
 * range and optionally one version. Counts only: no answer or patient detail is part of analytics.
 */
export function FlowAnalytics({ flowId, initialDays }: { flowId: string; initialDays: RangeDays }) {
  const id = useId();
  const trpc = useTRPC();
  const [days, setDays] = useState<RangeDays>(initialDays);
  const [versionId, setVersionId] = useState('');
  const { from, to } = rangeOf(days);
  const versions = useQuery(trpc.flows.versions.queryOptions({ id: flowId }));
  const stats = useQuery(trpc.flowAnalytics.stats.queryOptions({ id: flowId, from, to, ...(versionId ? { versionId } : {}) }));
  const daily = useQuery(trpc.flowAnalytics.daily.queryOptions({ flowId, from, to }));
  const published = (versions.data ?? []).filter((v) => v.publishedAt);
  // The funnel names steps by their headings, from the version it shows (the live one unless one is picked).
  const shownVersion = versionId ? published.find((v) => v.id === versionId) : published.find((v) => v.status === 'published');
  const funnelSteps = shownVersion ? new Map(shownVersion.document.steps.map((s) => [s.id, { kind: s.kind, heading: stepHeading(s) }])) : undefined;
  const select = 'mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap gap-4">
        <div>
          <label htmlFor={`${id}-range`} className="block text-sm font-medium text-slate-700">
            Range
          </label>
          <select id={`${id}-range`} value={days} onChange={(e) => setDays(Number(e.target.value) as RangeDays)} className={select}>
            {RANGES.map((d) => (
              <option key={d} value={d}>
                Last {d} days
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-version`} className="block text-sm font-medium text-slate-700">
            Funnel of
          </label>
          <select id={`${id}-version`} value={versionId} onChange={(e) => setVersionId(e.target.value)} className={select}>
            <option value="">The live version</option>
            {published.map((v) => (
              <option key={v.id} value={v.id}>
                Version {v.number}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        {from} to {to}, UTC days. Views are sessions that showed a page or saved a step; completed runs are the submitted ones; the qualify rate is qualified runs per view.
      </p>
      {stats.isPending && <Loading label="Loading the funnel…" />}
      {stats.isError && <QueryError error={stats.error} title="The stats could not be read." />}
      {stats.data && (
        <>
          <StatTiles stats={stats.data} />
          <FunnelChart stats={stats.data} steps={funnelSteps} />
        </>
      )}
      {daily.isPending && <Loading label="Loading the daily series…" />}
      {daily.isError && <QueryError error={daily.error} title="The daily series could not be read." />}
      {daily.data && (
        <div className="grid gap-6 lg:grid-cols-2">
          <QualifyRateChart days={fillDays(daily.data, from, to, (day) => ({ day, views: 0, sessions: 0, qualified: 0, disqualified: 0 }))} overall={stats.data?.qualifyRate ?? 0} />
          <ViewsSessionsChart days={fillDays(daily.data, from, to, (day) => ({ day, views: 0, sessions: 0, qualified: 0, disqualified: 0 }))} />
        </div>
      )}
    </div>
  );
}
