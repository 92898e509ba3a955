import { answered, firstIssue, send } from '../client';
import { testOrder, ZAnyStatusOrderState } from '../test-order';
import type { Check } from '../types';

export const orderCreate: Check = {
  name: 'order-create',
  title: 'Order create',
  expected: 'POST /orders with an Idempotency-Key and an OrderRequest answers 201 (or 200) with an OrderState',
  async run(state) {
    const x = await send(state, 'POST /orders', 'POST', 'orders', { body: testOrder(state), key: state.key });
    if (x.status !== 201 && x.status !== 200) return { passed: false, seen: answered(x) };
    const parsed = ZAnyStatusOrderState.safeParse(x.json);
    if (!parsed.success) return { passed: false, seen: `HTTP ${x.status}, not an OrderState: ${firstIssue(parsed.error)}` };
    const { externalId, status, reasonCode } = parsed.data;
    state.created = { externalId, status, reasonCode };
    return { passed: true, seen: `HTTP ${x.status}, ${externalId} ${status}${reasonCode ? ` (${reasonCode})` : ''}` };
  },
};
