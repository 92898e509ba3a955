'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { RouterOutputs } from '@/web/console/types';
import { formatDate } from './format';

export type DailySeries = RouterOutputs['overview']['routedOrdersDaily'];

const shortDay = (date: string) => formatDate(`${date}T00:00:00Z`).replace(/, \d{4}$/, '');

/** The sentence a screen reader hears for the chart, and everyone reads under it. */
function summaryOf(series: DailySeries, what: string): string {
  const busiest = series.days.reduce((best, d) => (d.count > best.count ? d : best), { date: '', count: 0 });
  const first = series.days[0]?.date;
  const last = series.days.at(-1)?.date;
  const span = first && last ? `${formatDate(`${first}T00:00:00Z`)} to ${formatDate(`${last}T00:00:00Z`)} (UTC days)` : 'this range';
  const peak = busiest.count > 0 ? ` Busiest day: ${formatDate(`${busiest.date}T00:00:00Z`)}, with ${busiest.count}.` : '';
  return `${what}: ${series.total} in total, ${span}.${peak}`;
}

/**
 * A bar per UTC day. The drawing is hidden from assistive technology; its caption gives the totals and a
 * visually hidden table lists every day, so the numbers are there without seeing the bars.
 */
export function DailyChart({ series, title, what }: { series: DailySeries; title: string; what: string }) {
  const summary = summaryOf(series, what);
  return (
    <figure className="relative min-w-0 space-y-2" aria-label={title}>
      <div className="h-56 w-full min-w-0" aria-hidden="true" data-testid="daily-chart">
        <ResponsiveContainer width="100%" height="100%">
          {/* Recharts' keyboard layer would put a focusable element inside aria-hidden; the table below replaces it. */}
          <BarChart data={series.days} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="date" tickFormatter={shortDay} tick={{ fontSize: 11, fill: '#475569' }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: '#475569' }} width={40} />
            <Tooltip labelFormatter={(d) => formatDate(`${String(d)}T00:00:00Z`)} formatter={(v) => [v, what]} />
            <Bar dataKey="count" fill="#4f46e5" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-600">{summary}</figcaption>
      {/* A table box ignores its own width and overflow, so the clipping box around it is what keeps it out of sight and out of the layout. */}
      <div className="sr-only">
        <table>
          <caption>{title}, per UTC day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{what}</th>
            </tr>
          </thead>
          <tbody>
            {series.days.map((d) => (
              <tr key={d.date}>
                <td>{formatDate(`${d.date}T00:00:00Z`)}</td>
                <td>{d.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
