import { CALLBACK_STATUSES, PHARMACY_STATUSES } from '../../protocol/schemas';
import type { Check } from '../types';

const statusIn = (json: unknown): unknown => (json && typeof json === 'object' ? (json as { status?: unknown }).status : undefined);

export const statusNames: Check = {
  name: 'status-names',
  title: 'Status names',
  expected: `every answer's status is one of ${PHARMACY_STATUSES.join(', ')}; every callback's one of ${CALLBACK_STATUSES.join(', ')}`,
  needs: ['order-create'],
  async run(state) {
    const unknown: string[] = [];
    for (const x of state.exchanges) {
      const s = statusIn(x.json);
      if (x.label.includes('/orders') && x.status !== null && x.status < 300 && !(PHARMACY_STATUSES as readonly unknown[]).includes(s)) unknown.push(`${x.label}: ${JSON.stringify(s)}`);
    }
    for (const c of state.callbacks) {
      let s: unknown;
      try {
        s = statusIn(JSON.parse(c.body));
      } catch {
        s = undefined;
      }
      if (!(CALLBACK_STATUSES as readonly unknown[]).includes(s)) unknown.push(`callback: ${JSON.stringify(s)}`);
    }
    const seen = new Set(state.exchanges.map((x) => statusIn(x.json)).filter((s): s is string => typeof s === 'string'));
    return { passed: unknown.length === 0, seen: unknown.length ? `unknown: ${unknown.join('; ')}` : `statuses: ${[...seen].join(', ')}` };
  },
};
