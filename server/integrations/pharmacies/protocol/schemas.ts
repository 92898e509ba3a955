import * as z from '@/server/lib/zod';
// A catalog row is also part of the simulated pharmacy's script, so it stays beside that script's settings.
import { ZCatalogFeedRow } from '../settings';
import { PHARMACY_REASON_CODES, REASON_CODE_PATTERN } from '@/server/lib/pharmacy-reason-codes';

/*
 * The pharmacy protocol on the wire (DESIGN decisions 11 and 43): every body the `http` adapter sends and every
 * body it accepts, in one place. The adapter reads answers and callbacks with these schemas and builds its
 * requests to their types; the published contract (GET /v1/pharmacy-protocol/openapi.json) is generated from
 * them, so the two cannot say different things. tests/no-database/pharmacy-protocol-document.test.ts holds them
 * together.
 */

/** The statuses a pharmacy reports for an order, in the order they happen. */
export const PHARMACY_STATUSES = ['received', 'accepted', 'rejected', 'shipped', 'delivered', 'cancelled'] as const;
/** The statuses a callback may carry: `received` is what the create's own answer says, never a callback. */
export const CALLBACK_STATUSES = ['accepted', 'rejected', 'shipped', 'delivered', 'cancelled'] as const;

export const ZReasonCode = z
  .string()
  .regex(REASON_CODE_PATTERN, 'must be a lowercase code of letters, digits and underscores (at most 64)')
  .meta({
    description:
      'Why the order was rejected (with `rejected`) or is held (with `received` or `accepted`): one of the vocabulary in docs/pharmacy-protocol.md ' +
      `(${PHARMACY_REASON_CODES.join(', ')}). An unknown code is kept and shown as "other" with its value. Never prose: it must name no patient.`,
    examples: ['out_of_stock'],
  });

export const ZTracking = z.strictObject({
  carrier: z.string().min(1).max(50).meta({ description: 'Carrier name, e.g. UPS' }),
  number: z.string().min(1).max(100).meta({ description: 'Tracking number' }),
  url: z.url().max(2048).nullable().default(null).meta({ description: 'Tracking page, when the carrier has one' }),
});

// ── What we send ─────────────────────────────────────────────────────────────────────────────────────────────

const ZOrderItem = z.object({
  productId: z.string().meta({ description: "The clinic's product id (prd_…)" }),
  sku: z.string().meta({ description: "The clinic's SKU for the product, as in your catalog feed" }),
  itemCode: z.string().meta({ description: 'Your own item code, from the approved catalog (empty when the catalog has none)' }),
  quantity: z.number().int().min(1).meta({ description: 'Units to dispense' }),
  sig: z.string().meta({ description: 'Directions for use, as the prescriber wrote them' }),
  refills: z.number().int().min(0).meta({ description: 'Refills authorised' }),
});

const ZAddress = z.object({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  state: z.string().meta({ description: 'Two-letter US state code' }),
  postalCode: z.string(),
  country: z.string().meta({ description: 'ISO 3166-1 alpha-2, `US`' }),
});

/** The order the domain hands the adapter (DispatchOrder): the prescription lines, the patient and the prescriber. */
export const ZDispatchOrder = z.object({
  orderId: z.string().meta({ description: "Fulfillment Rail's order id (ord_…); the same across reroutes, so never de-duplicate on it" }),
  livemode: z.boolean().meta({ description: 'False for a test order (a sandbox order or the protocol checker): never fill it' }),
  items: z.array(ZOrderItem).min(1),
  patient: z.object({
    id: z.string().meta({ description: "The clinic's patient id (pat_…)" }),
    firstName: z.string(),
    lastName: z.string(),
    dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD' }),
    sex: z.enum(['female', 'male', 'intersex', 'unknown']).meta({ description: 'Sex at birth' }),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    address: ZAddress.meta({ description: 'Where to ship' }),
  }),
  prescriber: z
    .object({ npi: z.string().meta({ description: '10-digit NPI' }), name: z.string() })
    .nullable()
    .meta({ description: 'The approving provider, when they have an NPI on file' }),
});

/** `POST /orders`: the dispatch order, plus where this order's status callbacks go. */
export const ZOrderRequest = ZDispatchOrder.extend({
  callbackUrl: z.url().meta({
    description:
      "Where to POST this order's signed status callbacks: Fulfillment Rail's `/v1/pharmacy-callbacks/{connectionId}` for real orders, the checker's own listener for its test orders. Always use the URL of the order.",
  }),
});

/** `POST /orders/{idempotencyKey}/cancel` sends an empty object. */
export const ZCancelRequest = z.strictObject({});

// ── What we accept ───────────────────────────────────────────────────────────────────────────────────────────

/** Answer to create, lookup and cancel: your view of one order. */
export const ZOrderState = z.object({
  externalId: z.string().min(1).max(200).meta({ description: 'Your id for the order; the same for every answer about one idempotency key' }),
  status: z.enum(PHARMACY_STATUSES).meta({ description: 'Where the order stands; only ever moves forward (see the status table)' }),
  reasonCode: ZReasonCode.nullable().default(null),
  tracking: ZTracking.nullable().default(null).meta({ description: 'Once shipped' }),
  estimatedDelivery: z.string().max(30).nullable().default(null).meta({ description: 'Expected delivery date, YYYY-MM-DD' }),
});

/** `GET /catalog`: the price list. */
export const ZCatalogFeed = z.object({ items: z.array(ZCatalogFeedRow).max(50_000) });

/** A status callback: which order (by our idempotency key) and what happened to it. */
export const ZStatusCallback = z.object({
  idempotencyKey: z.string().min(1).max(200).meta({ description: 'The Idempotency-Key the order was created with' }),
  status: z.enum(CALLBACK_STATUSES).meta({ description: 'The status the order moved to' }),
  reasonCode: ZReasonCode.nullable().default(null),
  tracking: ZTracking.nullable().default(null).meta({ description: 'With `shipped` (and `delivered`)' }),
  estimatedDelivery: z.iso.date().nullable().default(null).meta({ description: 'Expected delivery date' }),
});

export type OrderRequest = z.output<typeof ZOrderRequest>;
