'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import type { RouterOutputs } from '@/web/console/types';
import { IdChip } from '../ui/copy-button';
import { DailyChart } from '../ui/daily-chart';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { capitalized, ORDER_STATUS_WORDS } from '../ui/status-words';
import { UsageMeter } from '../developer/usage-meter';

type Overview = RouterOutputs['overview']['summary'];
type StatusCounts = NonNullable<Overview['orders']>['today'];

export const ROUTED_DAYS = 30;

// The statuses in their lifecycle order, in words.
const STATUS_LABELS = (Object.entries(ORDER_STATUS_WORDS) as [Exclude<keyof StatusCounts, 'total'>, string][]).map(([s, words]) => [s, capitalized(words)] as const);

function Card({ title, children, action, testId }: { title: string; children: React.ReactNode; action?: React.ReactNode; testId?: string }) {
  return (
    <section aria-label={title} data-testid={testId} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}

const linkClass = 'text-sm text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/** How long, in the two largest units that matter: "3 d 4 h", "2 h 5 min", "40 s". */
export function formatAge(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${seconds} s`;
}

function OrdersByStatus({ orders }: { orders: NonNullable<Overview['orders']> }) {
  const shown = STATUS_LABELS.filter(([s]) => orders.month[s] > 0);
  return (
    <Card title="Orders by status" action={<Link className={linkClass} href="/orders">All orders →</Link>}>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Orders created today and this month (UTC), by the status each is in now</caption>
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">Status</th>
              <th scope="col" className="py-1 px-2 text-right font-medium">Today</th>
              <th scope="col" className="py-1 pl-2 text-right font-medium">This month</th>
            </tr>
          </thead>
          <tbody>
            {shown.map(([status, label]) => (
              <tr key={status} className="border-t border-slate-100">
                <th scope="row" className="py-1.5 pr-2 font-normal">{label}</th>
                <td className="py-1.5 px-2 text-right tabular-nums">{orders.today[status]}</td>
                <td className="py-1.5 pl-2 text-right tabular-nums">{orders.month[status]}</td>
              </tr>
            ))}
            <tr className="border-t border-slate-200 font-semibold">
              <th scope="row" className="py-1.5 pr-2">Total</th>
              <td className="py-1.5 px-2 text-right tabular-nums" data-testid="orders-today-total">{orders.today.total}</td>
              <td className="py-1.5 pl-2 text-right tabular-nums" data-testid="orders-month-total">{orders.month.total}</td>
            </tr>
          </tbody>
        </table>
      </div>
      {shown.length === 0 && <p className="mt-2 text-sm text-slate-500">No orders this month yet.</p>}
    </Card>
  );
}

/** How long a queue's oldest item has waited, with a link to it: the order queue and the intake queue alike. */
function OldestWaiting({ oldest, id, href, label }: { oldest: { ageSeconds: number; waitingSince: string }; id: string; href: string; label: string }) {
  return (
    <div className="mt-3 space-y-1 text-sm">
      <p>
        Oldest waiting <strong>{formatAge(oldest.ageSeconds)}</strong>, since {formatDateTime(oldest.waitingSince)}
      </p>
      <p className="flex flex-wrap items-center gap-2">
        <Link className={linkClass} href={href}>{label}</Link>
        <IdChip id={id} />
      </p>
    </div>
  );
}

function ApprovalQueue({ queue }: { queue: NonNullable<Overview['approvalQueue']> }) {
  return (
    <Card title="Approval queue" testId="overview-approval-queue" action={<Link className={linkClass} href="/orders/approvals">Open the queue →</Link>}>
      <p className="text-3xl font-semibold tabular-nums" data-testid="approval-waiting">{queue.waiting}</p>
      <p className="text-sm text-slate-600">{queue.waiting === 1 ? 'order waits' : 'orders wait'} for a provider</p>
      {queue.oldest && <OldestWaiting oldest={queue.oldest} id={queue.oldest.orderId} href={`/orders/${queue.oldest.orderId}`} label="View the oldest order" />}
    </Card>
  );
}

/**
 * The intake review queue, beside the order approval queue (issue 50 item 5): a provider's two queues on one
 * screen. A count and the oldest submission's wait; the names are on the queue's page (a logged read).
 */
function IntakeQueue({ queue }: { queue: NonNullable<Overview['intakeQueue']> }) {
  return (
    <Card title="Intake review" testId="overview-intake-queue" action={<Link className={linkClass} href="/intake/submissions">Open the review queue →</Link>}>
      <p className="text-3xl font-semibold tabular-nums" data-testid="intake-waiting">{queue.waiting}</p>
      <p className="text-sm text-slate-600">{queue.waiting === 1 ? 'submission waits' : 'submissions wait'} for a provider’s review</p>
      {queue.identityToResolve > 0 && (
        <p data-testid="intake-identity-to-resolve" className="mt-1 text-sm font-medium text-amber-900">
          {queue.identityToResolve} {queue.identityToResolve === 1 ? 'needs' : 'need'} the patient’s identity resolved first
        </p>
      )}
      {queue.oldest && (
        <OldestWaiting oldest={queue.oldest} id={queue.oldest.submissionId} href={`/intake/submissions/${queue.oldest.submissionId}`} label="Review the oldest submission" />
      )}
    </Card>
  );
}

function FailingWebhooks({ webhooks }: { webhooks: NonNullable<Overview['webhooks']> }) {
  return (
    <Card title="Webhook endpoints" action={<Link className={linkClass} href="/webhooks">Manage →</Link>}>
      {webhooks.failing.length === 0 ? (
        <p className="text-sm text-slate-600">
          {webhooks.endpoints === 0 ? 'No endpoints in this mode.' : `All ${webhooks.endpoints} ${webhooks.endpoints === 1 ? 'endpoint is' : 'endpoints are'} delivering.`}
        </p>
      ) : (
        <>
          <p className="text-sm font-medium text-red-700" data-testid="webhooks-failing">
            {webhooks.failing.length} of {webhooks.endpoints} failing
          </p>
          <ul className="mt-2 space-y-3">
            {webhooks.failing.map((e) => (
              <li key={e.id} className="min-w-0 text-sm">
                <p className="break-all font-mono text-xs">{e.url}</p>
                <p className="text-slate-600">
                  {e.lastDelivery.status === 'dead' ? 'Gave up' : 'Retrying'} {e.lastDelivery.eventType}
                  {e.lastDelivery.responseCode !== null && ` (HTTP ${e.lastDelivery.responseCode})`} at {formatDateTime(e.lastDelivery.at)}; {e.failedDeliveries} failed
                  {e.failedDeliveries === 1 ? ' delivery' : ' deliveries'} kept{e.status === 'disabled' && '; endpoint disabled'}
                </p>
                <IdChip id={e.id} />
              </li>
            ))}
          </ul>
        </>
      )}
    </Card>
  );
}

function RoutedChart() {
  const trpc = useTRPC();
  const series = useQuery(trpc.overview.routedOrdersDaily.queryOptions({ days: ROUTED_DAYS }));
  return (
    <Card title={`Routed orders, last ${ROUTED_DAYS} days`}>
      {series.isPending && <Loading label="Loading the chart…" />}
      {series.isError && <QueryError error={series.error} title="The chart could not be loaded." />}
      {series.data && <DailyChart series={series.data} title={`Routed orders per day, last ${ROUTED_DAYS} days`} what="Orders routed" />}
    </Card>
  );
}

/** The console's landing page: each block is there only when the person's scopes reach it. */
export function OverviewDashboard({ showRoutedChart }: { showRoutedChart: boolean }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.overview.summary.queryOptions());
  if (overview.isPending) return <Loading label="Loading the overview…" />;
  if (overview.isError) return <QueryError error={overview.error} title="The overview could not be loaded." />;
  const o = overview.data;
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {/* A provider's two queues first, side by side: the orders to approve and the intake to review. */}
        {o.approvalQueue && <ApprovalQueue queue={o.approvalQueue} />}
        {o.intakeQueue && <IntakeQueue queue={o.intakeQueue} />}
        {o.orders && <OrdersByStatus orders={o.orders} />}
        {o.usage && (
          <Card title="Usage" action={<Link className={linkClass} href="/usage">Details →</Link>}>
            <UsageMeter usage={o.usage} />
          </Card>
        )}
        {o.webhooks && <FailingWebhooks webhooks={o.webhooks} />}
      </div>
      {showRoutedChart && <RoutedChart />}
    </div>
  );
}
