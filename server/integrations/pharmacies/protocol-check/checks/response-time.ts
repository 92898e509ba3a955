import type { Check } from '../types';

export const responseTime: Check = {
  name: 'response-time',
  title: 'Response time',
  expected: 'every request is answered within the time limit (the connection\'s timeoutMs)',
  async run(state) {
    const limit = state.options.timeLimitMs;
    const slow = state.exchanges.filter((x) => x.status === null || x.ms > limit);
    const slowest = state.exchanges.reduce((a, x) => (x.ms > a.ms ? x : a), { label: '', ms: 0 });
    if (slow.length) return { passed: false, seen: slow.map((x) => `${x.label}: ${x.status === null ? (x.error ?? 'no answer') : `${x.ms} ms`}`).join('; ') };
    return { passed: true, seen: `${state.exchanges.length} answers, slowest ${slowest.ms} ms (${slowest.label}) within ${limit} ms` };
  },
};
