import { answered, send } from '../client';
import { orderPath, ZAnyStatusOrderState } from '../test-order';
import type { Check } from '../types';

/** Statuses a just-created order may be cancelled from; a refused one stays refused. */
const CANCELLABLE = new Set(['received', 'accepted']);

export const orderCancel: Check = {
  name: 'order-cancel',
  title: 'Cancel',
  expected: 'POST /orders/{idempotencyKey}/cancel answers 200 with the order now cancelled (a refused order stays rejected), and a lookup agrees',
  needs: ['order-create'],
  async run(state) {
    const { externalId, status: before } = state.created!;
    const path = `${orderPath(state.key)}/cancel`;
    const x = await send(state, 'POST /orders/{key}/cancel', 'POST', path, { body: {}, key: state.key });
    const parsed = ZAnyStatusOrderState.safeParse(x.json);
    if (x.status !== 200 || !parsed.success) return { passed: false, seen: `${answered(x)}${x.status === 200 ? ', not an OrderState' : ''}` };
    state.cancelledAs = parsed.data.status;
    const wanted = CANCELLABLE.has(before) ? 'cancelled' : before;
    const after = await send(state, 'GET /orders/{key} (after cancel)', 'GET', orderPath(state.key));
    const looked = ZAnyStatusOrderState.safeParse(after.json);
    const lookedUp = after.status === 200 && looked.success ? looked.data.status : answered(after);
    const passed = parsed.data.externalId === externalId && parsed.data.status === wanted && lookedUp === wanted;
    return { passed, seen: `cancel answered ${parsed.data.externalId} ${parsed.data.status} (was ${before}); lookup then: ${lookedUp}` };
  },
};
