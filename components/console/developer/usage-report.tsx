'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { DailyChart } from '../ui/daily-chart';
import { formatDate } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { UsageMeter } from './usage-meter';

function Figure({ label, value, hint, testId }: { label: string; value: number | string; hint: string; testId: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      <dd className="text-xs text-slate-500">{hint}</dd>
    </div>
  );
}

/** The spec's Usage object as a page: the billable count against the plan, per day, and the mode's object counts. */
export function UsageReport({ mode }: { mode: 'sandbox' | 'live' }) {
  const trpc = useTRPC();
  const usage = useQuery(trpc.developer.getUsage.queryOptions({}));
  const daily = useQuery(trpc.developer.billableRoutedDaily.queryOptions());
  if (usage.isPending) return <Loading label="Loading usage…" />;
  if (usage.isError) return <QueryError error={usage.error} title="Usage could not be loaded." />;
  const u = usage.data;
  // The period's end is exclusive: the last day billed is the one before it.
  const lastDay = new Date(new Date(u.period.end).getTime() - 86_400_000);
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        Billing period {formatDate(u.period.start)} – {formatDate(lastDay)} (UTC). Only live orders are billed; sandbox orders are never counted.
      </p>
      <section aria-label="Plan" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
          Plan: <span className="capitalize text-slate-900" data-testid="usage-plan">{u.plan}</span>
        </h2>
        <UsageMeter usage={u} />
      </section>
      <section aria-label="Routed orders this period" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">Live orders routed per day, this period</h2>
        {daily.isPending && <Loading label="Loading the chart…" />}
        {daily.isError && <QueryError error={daily.error} title="The chart could not be loaded." />}
        {daily.data && <DailyChart series={daily.data} title="Live orders routed per day this billing period" what="Live orders routed" />}
      </section>
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Figure label="Active API keys" value={u.activeApiKeys} hint={`Not revoked or expired, ${mode}`} testId="usage-keys" />
        <Figure label="Enabled webhook endpoints" value={u.enabledWebhookEndpoints} hint={`In ${mode}`} testId="usage-endpoints" />
        <Figure label="Events this period" value={u.eventsThisPeriod} hint={`Appended to the ${mode} event log`} testId="usage-events" />
      </dl>
    </div>
  );
}
