import { answered, send } from '../client';
import { testOrder, ZAnyStatusOrderState } from '../test-order';
import type { Check, RunState } from '../types';

async function again(state: RunState, label: string, quantity: number): Promise<string> {
  const x = await send(state, label, 'POST', 'orders', { body: testOrder(state, quantity), key: state.key });
  if (x.status !== 200 && x.status !== 201) return answered(x);
  const parsed = ZAnyStatusOrderState.safeParse(x.json);
  return parsed.success ? parsed.data.externalId : `HTTP ${x.status}, not an OrderState`;
}

export const orderIdempotent: Check = {
  name: 'order-idempotent',
  title: 'One order per Idempotency-Key',
  expected: 'POST /orders again with the same Idempotency-Key (the same body, then a changed one) answers the first order: the same externalId, nothing created',
  needs: ['order-create'],
  async run(state) {
    const first = state.created!.externalId;
    const same = await again(state, 'POST /orders (repeat)', 1);
    const changed = await again(state, 'POST /orders (repeat, other body)', 2);
    const passed = same === first && changed === first;
    return { passed, seen: passed ? `${first} each time` : `${first}, then ${same}, then ${changed} (a second order, or no answer)` };
  },
};
