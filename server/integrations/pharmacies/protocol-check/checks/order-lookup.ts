import { answered, send } from '../client';
import { orderPath, ZAnyStatusOrderState } from '../test-order';
import type { Check } from '../types';

export const orderLookup: Check = {
  name: 'order-lookup',
  title: 'Lookup by Idempotency-Key',
  expected: 'GET /orders/{idempotencyKey} answers 200 with the order (same externalId); a key never sent answers 404',
  needs: ['order-create'],
  async run(state) {
    const first = state.created!.externalId;
    const known = await send(state, 'GET /orders/{key}', 'GET', orderPath(state.key));
    const parsed = ZAnyStatusOrderState.safeParse(known.json);
    const found = known.status === 200 && parsed.success ? parsed.data.externalId : null;
    const unknown = await send(state, 'GET /orders/{unknown key}', 'GET', orderPath(state.unknownKey));
    const passed = found === first && unknown.status === 404;
    const seenKnown = found ? `${answered(known)} ${found}` : `${answered(known)}${known.status === 200 ? ', not an OrderState' : ''}`;
    return { passed, seen: `known key: ${seenKnown}; unknown key: ${answered(unknown)}` };
  },
};
