'use client';

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ExperimentArms } from './experiment-types';
import { ratePercent } from './experiment-words';

const tick = { fontSize: 11, fill: '#475569' };
const COLOURS = { Control: '#475569', Variant: '#4f46e5' };

/**
 * The qualify rate per arm, drawn for the eye and hidden from assistive technology; a visually hidden table
 * carries every number (the flow analytics charts' pattern).
 */
export function ArmResultsChart({ results }: { results: ExperimentArms }) {
  const data = [
    { arm: 'Control' as const, ...results.control },
    { arm: 'Variant' as const, ...results.variant },
  ];
  return (
    <figure className="min-w-0 space-y-2" aria-label="Qualify rate per arm">
      <div className="h-48 w-full min-w-0" aria-hidden="true" data-testid="arm-results-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -8 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="arm" tick={tick} />
            <YAxis tickFormatter={(r: number) => `${Math.round(r * 100)}%`} domain={[0, 1]} tick={tick} width={48} />
            <Tooltip formatter={(r) => [typeof r === 'number' ? ratePercent(r) : '—', 'Qualify rate']} />
            <Bar dataKey="qualifyRate" isAnimationActive={false} radius={[3, 3, 0, 0]}>
              {data.map((d) => (
                <Cell key={d.arm} fill={COLOURS[d.arm]} />
              ))}
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="w-full text-left text-sm" data-testid="arm-results">
        <caption className="sr-only">Results per arm</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th scope="col">Arm</th>
            <th scope="col">Sessions</th>
            <th scope="col">Qualified</th>
            <th scope="col">Qualify rate</th>
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.arm} data-testid={`arm-row-${d.arm.toLowerCase()}`}>
              <th scope="row" className="font-medium">
                {d.arm}
              </th>
              <td>{d.sessions}</td>
              <td>{d.qualified}</td>
              <td>{ratePercent(d.qualifyRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
