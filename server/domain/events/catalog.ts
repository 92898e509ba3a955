import { z } from 'zod';

// Every value in event data is an id, a status, a verdict or a code: patterns and enums admit no free
// text, so a patient's name, e-mail or birth date cannot ride along even by mistake.
const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `a ${prefix}_ id`);
const code = z.string().regex(/^[a-z0-9_.-]{1,64}$/, 'a lowercase machine code');
const stepId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a step id');
/** A clinic store's order id as the checkout callback may report it (also the order's `foreignOrderId`). */
export const EXTERNAL_ORDER_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
const EXTERNAL_ORDER_ID = z.string().regex(EXTERNAL_ORDER_ID_PATTERN, 'a store order id');

const ORDER_STATUSES = ['draft', 'pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'delivered', 'rejected', 'cancelled'] as const;

const order = { orderId: id('ord'), pharmacyConnectionId: id('phc'), status: z.enum(ORDER_STATUSES) };
const session = { flowId: id('flw'), sessionId: id('fs') };

export const EVENT_CATALOG = {
  'order.routed': z.strictObject(order),
  'order.submitted': z.strictObject(order),
  // An order no pharmacy can fill is rejected at approval before any pharmacy holds it: null then.
  // `reasonCode` is the vocabulary's (server/lib/pharmacy-reason-codes.ts), or `other` with the
  // pharmacy's own code in `reasonRaw` (present only then): a code either way, never prose.
  'order.rejected': z.strictObject({ ...order, pharmacyConnectionId: id('phc').nullable(), reasonCode: code, reasonRaw: code.optional() }),
  'order.shipped': z.strictObject(order),
  'order.delivered': z.strictObject(order),
  // A draft or pending order no pharmacy ever held is cancelled too: null then.
  'order.cancelled': z.strictObject({ ...order, pharmacyConnectionId: id('phc').nullable() }),
  'intake.submission.created': z.strictObject({ submissionId: id('isub'), verdict: z.enum(['eligible', 'disqualified', 'incomplete']) }),
  'flow.viewed': z.strictObject({ ...session, flowVersionId: id('fv') }),
  'step.completed': z.strictObject({ ...session, stepId }),
  'flow.qualified': z.strictObject({ ...session, submissionId: id('isub'), verdict: z.literal('eligible') }),
  'flow.disqualified': z.strictObject({ ...session, verdict: z.literal('disqualified') }),
  'experiment.exposed': z.strictObject({ ...session, experimentId: id('exp'), variantKey: z.enum(['control', 'variant']) }),
  'flow.published': z.strictObject({
    flowId: id('flw'),
    // Decision 23 names it `versionId`; `flowVersionId`, its first name, stays for integrations that read it.
    versionId: id('fv'),
    flowVersionId: id('fv'),
    clinicalPlaneHash: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest'),
    approvedBy: id('usr'),
  }),
  'flow.session.qualified': z.strictObject({ ...session, verdict: z.literal('eligible') }),
  'flow.session.completed': z.strictObject({ ...session, verdict: z.enum(['eligible', 'disqualified', 'incomplete']) }),
  // The store's own order id: an opaque reference, not PHI, held to a shape that cannot carry free text.
  'flow.checkout.completed': z.strictObject({ ...session, externalOrderId: EXTERNAL_ORDER_ID }),
} as const;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]>;

/** The subscribable types, in the spec's order (GET /developer/webhooks/events). */
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

/** Sent by the endpoint test call only; never written to the log and never subscribable. */
export const TEST_EVENT_TYPE = 'webhook.test';

export const isEventType = (t: string): t is EventType => Object.hasOwn(EVENT_CATALOG, t);

/** Thrown for data that breaks its type's schema: a programming error, so it names keys, never values. */
export class EventDataError extends Error {
  constructor(type: string, problems: string[]) {
    super(`Event data for '${type}' rejected: ${problems.join('; ')}`);
    this.name = 'EventDataError';
  }
}

export function validateEventData<T extends EventType>(type: T, data: unknown): EventData<T> {
  if (!isEventType(type)) throw new EventDataError(String(type), ['unknown event type']);
  const parsed = EVENT_CATALOG[type].safeParse(data);
  if (!parsed.success) {
    throw new EventDataError(
      type,
      parsed.error.issues.map((i) => (i.code === 'unrecognized_keys' ? `undeclared keys ${i.keys.join(', ')}` : `${i.path.join('.') || '(root)'}: ${i.message}`)),
    );
  }
  return parsed.data as EventData<T>;
}
