'use client';

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDate } from '../ui/format';
import { TableScroll } from '../ui/data-table';
import { biggestDrop, funnelRows, type FunnelStep } from './funnel';

export interface FlowStats {
  views: number;
  sessions: number;
  qualified: number;
  disqualified: number;
  qualifyRate: number;
  byStep: { stepId: string; reached: number; completes: number }[];
}

export interface FlowDay {
  day: string;
  views: number;
  sessions: number;
  qualified: number;
  disqualified: number;
}

const tick = { fontSize: 11, fill: '#475569' };
const shortDay = (day: string) => formatDate(`${day}T00:00:00Z`).replace(/, \d{4}$/, '');
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/**
 * A chart drawn for the eye, hidden from assistive technology; the caption says what matters and a visually
 * hidden table carries every number (the daily chart's pattern).
 */
function ChartFigure({ title, testId, caption, head, rows, children }: { title: string; testId: string; caption: string; head: string[]; rows: (string | number)[][]; children: React.ReactElement }) {
  return (
    <figure className="relative min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-4" aria-label={title}>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <div className="h-60 w-full min-w-0" aria-hidden="true" data-testid={testId}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-600">{caption}</figcaption>
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              {head.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((c, j) => (
                  <td key={j}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

const th = 'px-1.5 py-1.5 text-right align-bottom font-medium sm:px-2';
const td = 'px-1.5 py-1.5 text-right tabular-nums sm:px-2';

/**
 * The funnel (issue 50 item 5): per step, in step order, a bar for the sessions that reached it and one for those
 * that completed it, so the drop-off at each step shows as the gap; the chart is drawn for the eye and hidden
 * from assistive technology, and the table under it, visible to everyone, carries every number with the
 * drop-off per step in patients and as a share of those who reached it.
 */
export function FunnelChart({ stats, steps }: { stats: FlowStats; steps?: ReadonlyMap<string, FunnelStep> }) {
  const rows = funnelRows(stats, steps);
  const completed = stats.qualified + stats.disqualified;
  const worst = biggestDrop(rows);
  const caption =
    stats.views === 0
      ? 'No views in this range yet.'
      : `${stats.views} views; ${completed} completed (submitted their answers), ${percent(completed / stats.views)} of views.${worst ? ` Most patients left at “${worst.label}”: ${worst.dropped} of ${worst.reached} who reached it.` : ''}`;
  return (
    <figure className="relative min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-labelledby="funnel-title" data-testid="funnel">
      <h3 id="funnel-title" className="text-sm font-semibold text-slate-900">Funnel by step</h3>
      <div className="w-full min-w-0" style={{ height: Math.max(160, rows.length * 44 + 48) }} aria-hidden="true" data-testid="funnel-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 16, bottom: 0, left: 8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
            <XAxis type="number" allowDecimals={false} tick={tick} />
            <YAxis type="category" dataKey="label" tick={tick} width={120} tickFormatter={(l: string) => (l.length > 18 ? `${l.slice(0, 17)}…` : l)} />
            <Tooltip formatter={(v, name) => [v, name]} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="reached" name="Reached" fill="#0f766e" radius={[0, 3, 3, 0]} isAnimationActive={false} />
            <Bar dataKey="completed" name="Completed" fill="#4f46e5" radius={[0, 3, 3, 0]} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-sm text-slate-600">{caption}</figcaption>
      <TableScroll label="Funnel by step, in numbers">
        <table className="w-full text-left text-sm" data-testid="funnel-table">
          <caption className="sr-only">Funnel by step: how many patients reached each step, how many completed it, and how many dropped off there</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-1.5 py-1.5 align-bottom font-medium sm:px-2">Step</th>
              <th scope="col" className={th}>Reached</th>
              <th scope="col" className={th}>Completed</th>
              <th scope="col" className={th}>Dropped off</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.stepId} data-testid="funnel-row" data-step-id={r.stepId} className="border-b border-slate-100 align-top">
                <th scope="row" className="px-1.5 py-1.5 font-normal break-words text-slate-800 sm:px-2">{r.label}</th>
                <td className={td} data-testid="funnel-reached">{r.reached}</td>
                <td className={td} data-testid="funnel-completed">{r.completed}</td>
                <td className={`${td} ${r.dropped > 0 ? 'font-medium text-red-800' : 'text-slate-600'}`} data-testid="funnel-dropped">
                  {r.dropped} <span className="block text-xs whitespace-nowrap sm:inline">({r.dropRate})</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </figure>
  );
}

/** Qualified runs per view, per UTC day (days without views have no rate and are left as gaps). */
export function QualifyRateChart({ days, overall }: { days: readonly FlowDay[]; overall: number }) {
  const data = days.map((d) => ({ day: d.day, rate: d.views > 0 ? d.qualified / d.views : null }));
  return (
    <ChartFigure
      title="Qualify rate over time"
      testId="qualify-rate-chart"
      caption={`Qualified ÷ views: ${percent(overall)} over the range.`}
      head={['Day', 'Qualify rate']}
      rows={data.map((d) => [formatDate(`${d.day}T00:00:00Z`), d.rate === null ? 'no views' : percent(d.rate)])}
    >
      <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -8 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={tick} minTickGap={16} />
        <YAxis tickFormatter={(r: number) => `${Math.round(r * 100)}%`} domain={[0, 1]} tick={tick} width={48} />
        <Tooltip labelFormatter={(d) => formatDate(`${String(d)}T00:00:00Z`)} formatter={(r) => [typeof r === 'number' ? percent(r) : '—', 'Qualify rate']} />
        {/* Dots, so a day between days without views (one day of data above all) is drawn, not a line of one point. */}
        <Line type="monotone" dataKey="rate" stroke="#4f46e5" strokeWidth={2} dot={{ r: 3, fill: '#4f46e5' }} connectNulls={false} isAnimationActive={false} />
      </LineChart>
    </ChartFigure>
  );
}

/** Views (sessions that showed the first page) beside sessions created, per UTC day. */
export function ViewsSessionsChart({ days }: { days: readonly FlowDay[] }) {
  const views = days.reduce((n, d) => n + d.views, 0);
  const sessions = days.reduce((n, d) => n + d.sessions, 0);
  return (
    <ChartFigure
      title="Views and sessions"
      testId="views-sessions-chart"
      caption={`${views} views and ${sessions} sessions over the range.`}
      head={['Day', 'Views', 'Sessions']}
      rows={days.map((d) => [formatDate(`${d.day}T00:00:00Z`), d.views, d.sessions])}
    >
      <BarChart data={[...days]} margin={{ top: 8, right: 16, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
        <XAxis dataKey="day" tickFormatter={shortDay} tick={tick} minTickGap={16} />
        <YAxis allowDecimals={false} tick={tick} width={40} />
        <Tooltip labelFormatter={(d) => formatDate(`${String(d)}T00:00:00Z`)} />
        {/* The legend's words take the series' colours, and axe checks their contrast even out of the accessibility tree. */}
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="views" name="Views" fill="#0f766e" isAnimationActive={false} />
        <Bar dataKey="sessions" name="Sessions" fill="#4f46e5" isAnimationActive={false} />
      </BarChart>
    </ChartFigure>
  );
}

export function StatTiles({ stats }: { stats: FlowStats }) {
  const tiles = [
    ['Views', String(stats.views)],
    ['Sessions', String(stats.sessions)],
    ['Qualified', String(stats.qualified)],
    ['Not eligible', String(stats.disqualified)],
    ['Qualify rate', percent(stats.qualifyRate)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="flow-stat-tiles">
      {tiles.map(([label, value]) => (
        <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
          <dt className="text-xs font-medium text-slate-500 uppercase">{label}</dt>
          <dd className="text-xl font-semibold text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
