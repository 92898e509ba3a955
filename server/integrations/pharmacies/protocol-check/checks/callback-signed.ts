import { Webhook } from 'standardwebhooks';
import { ZStatusCallback } from '../../protocol/schemas';
import { firstIssue, waitAtMost } from '../client';
import type { Check, ReceivedCallback, RunState } from '../types';

const statusOf = (c: ReceivedCallback): unknown => {
  try {
    return (JSON.parse(c.body) as { status?: unknown }).status;
  } catch {
    return undefined;
  }
};

/** Why one callback breaks the contract, or null when it keeps it. */
function problem(state: RunState, c: ReceivedCallback): string | null {
  const signature = c.headers['webhook-signature'];
  if (!signature || !c.headers['webhook-id'] || !c.headers['webhook-timestamp']) return 'not signed (no webhook-id, webhook-timestamp or webhook-signature)';
  let json: unknown;
  try {
    json = new Webhook(state.options.secret).verify(c.body, { 'webhook-id': c.headers['webhook-id'], 'webhook-timestamp': c.headers['webhook-timestamp'], 'webhook-signature': signature });
  } catch (err) {
    return `signature does not verify with the connection secret (${(err as Error).message})`;
  }
  const parsed = ZStatusCallback.safeParse(json);
  if (!parsed.success) return `not a StatusCallback: ${firstIssue(parsed.error)}`;
  if (parsed.data.idempotencyKey !== state.key) return `names idempotencyKey ${parsed.data.idempotencyKey}, not the test order's`;
  return null;
}

export const callbackSigned: Check = {
  name: 'callback-signed',
  title: 'Signed status callbacks',
  expected: "the cancel's status change is POSTed to the order's callbackUrl as a StatusCallback naming our Idempotency-Key, signed with the connection secret (Standard Webhooks)",
  needs: ['order-create'],
  async run(state) {
    const created = state.created!;
    if (created.status === 'rejected') {
      return { passed: false, seen: `no status change to report: the test order was rejected at once (${created.reasonCode ?? 'no reason'}); list an item in stock in /catalog` };
    }
    // The cancel is the change every implementation must report; without a cancel, any callback will do.
    const enough = state.cancelledAs === 'cancelled' ? (list: ReceivedCallback[]) => list.some((c) => statusOf(c) === 'cancelled') : (list: ReceivedCallback[]) => list.length > 0;
    const received = await state.options.callbacks.waitFor(enough, waitAtMost(state, state.options.callbackWaitMs));
    state.callbacks = received;
    if (received.length === 0) return { passed: false, seen: `no callback within ${state.options.callbackWaitMs} ms` };
    const problems = received.map((c) => ({ status: statusOf(c), why: problem(state, c) })).filter((p) => p.why);
    if (problems.length) return { passed: false, seen: `${received.length} callback(s); ${String(problems[0].status ?? '?')}: ${problems[0].why}` };
    if (!enough(received)) return { passed: false, seen: `${received.map(statusOf).join(', ')} arrived, but no \`cancelled\` within ${state.options.callbackWaitMs} ms` };
    return { passed: true, seen: `${received.length} signed callback(s): ${received.map(statusOf).join(', ')}` };
  },
};
