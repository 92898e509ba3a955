import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { patients } from './patients';

export const ORDER_STATUSES = ['draft', 'pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'delivered', 'rejected', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
// `intake`: created by a provider approving an in-app, public or hosted-link intake submission (DESIGN decision 21).
export type OrderSource = 'api' | 'flow' | 'store' | 'import' | 'intake';
export type OrderPriority = 'routine' | 'urgent';

export interface OrderItem {
  productId: string;
  quantity: number;
  sig: string;
  refills: number;
}

/**
 * What the provider approved, taken by the approval's own statement: the patient's identity, the state
 * the licence was checked for, and the lines. A dispatch whose order no longer matches it needs a new
 * approval. PHI, like the order itself; never leaves through the API, events or webhooks.
 */
export interface ApprovalSnapshot {
  patientId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: string;
  state: string;
  items: OrderItem[];
  /** When the approval came from an intake review: the submission and the questionnaire version (content hash) the provider saw. */
  intake?: { submissionId: string; questionnaireHash: string };
}

export interface Shipment {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
  estimatedDelivery: string | null;
  shippedAt: string | null;
  deliveredAt: string | null;
}

/**
 * Why routing sent the order where it did, as decided at that moment (approval, reroute or submit): ids,
 * pharmacy names, prices and reason codes only, never anything about the patient.
 */
export type RouteReason = 'lowest_cost' | 'fastest' | 'priority' | 'manual' | 'rerouted' | 'fallback' | 'no_qualifying_pharmacy' | 'manual_connection_ineligible';
export type IneligibleReason = 'disabled' | 'not_in_catalog' | 'state_not_served' | 'out_of_stock' | 'already_tried';

export interface OrderRouting {
  decidedAt: string;
  /** The policy's strategy, `manual`/`rerouted` for a pharmacy chosen by hand, `fallback`, or why none. */
  reason: RouteReason;
  strategy: 'priority' | 'lowest_cost' | 'fastest';
  explanation: string;
  connectionId: string | null;
  priceCents: number | null;
  etaDays: number | null;
  stateChecked: boolean;
  alternatives: { rank: number; connectionId: string; name: string; priceCents: number; etaDays: number }[];
  ineligible: { connectionId: string; name: string; reason: IneligibleReason; lines: { index: number; productId: string; reason: IneligibleReason }[] }[];
}

/** PHI by association (it names a patient and their prescriptions); read only through the orders domain. */
export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    source: text('source').$type<OrderSource>().notNull(),
    priority: text('priority').$type<OrderPriority>().notNull(),
    foreignOrderId: text('foreign_order_id'),
    patientId: text('patient_id').references(() => patients.id),
    items: jsonb('items').$type<OrderItem[]>().notNull(),
    amberFields: jsonb('amber_fields').$type<string[]>().notNull(),
    // The pharmacy the order is (or will be) dispatched to.
    connectionId: text('connection_id'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    approvedBy: text('approved_by'),
    approvalSnapshot: jsonb('approval_snapshot').$type<ApprovalSnapshot>(),
    // Bumped by every approval and reroute: one dispatch at most per round (DESIGN decision 9).
    dispatchRound: integer('dispatch_round').notNull().default(0),
    // First time a live dispatch reached a pharmacy: the billable "order routed" (DESIGN decision 13).
    firstRoutedAt: timestamp('first_routed_at', { withTimezone: true }),
    rejectionReasonCode: text('rejection_reason_code'),
    shipment: jsonb('shipment').$type<Shipment>(),
    routing: jsonb('routing').$type<OrderRouting>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('orders_scope_idx').on(t.tenantId, t.livemode, t.id),
    index('orders_status_idx').on(t.tenantId, t.livemode, t.status, t.id),
    uniqueIndex('orders_foreign_idx').on(t.tenantId, t.livemode, t.source, t.foreignOrderId).where(sql`${t.foreignOrderId} is not null`),
    index('orders_routed_idx').on(t.tenantId, t.firstRoutedAt).where(sql`${t.livemode} and ${t.firstRoutedAt} is not null`),
  ],
);

// `patient`: the patient themself, through the portal (a shipping change, DESIGN decision 40); actorId is their pat_ id.
export type ActorKind = 'user' | 'key' | 'pharmacy' | 'system' | 'patient';

/** The order's timeline: one row per status change (and per note-worthy event without one). */
export const orderTransitions = pgTable(
  'order_transitions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>().notNull(),
    actorKind: text('actor_kind').$type<ActorKind>().notNull(),
    actorId: text('actor_id'),
    reasonCode: text('reason_code'),
    // Free text a person wrote with the change (a provider's reason for declining): PHI, like the order.
    // Shown on the order's timeline only; never copied into events, webhooks or logs.
    note: text('note'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('order_transitions_order_idx').on(t.orderId, t.id)],
);

export type DispatchStatus = 'pending' | 'acknowledged' | 'failed' | 'cancelled';

/**
 * One row per (order, dispatch round): the idempotency key the pharmacy de-duplicates on. A round is
 * created in the transaction that approves (or reroutes and submits) the order, so it exists at most once.
 */
export const orderDispatches = pgTable(
  'order_dispatches',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    round: integer('round').notNull(),
    connectionId: text('connection_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    status: text('status').$type<DispatchStatus>().notNull(),
    externalId: text('external_id'),
    lastError: text('last_error'),
    // Last status the pharmacy reported, so polling and callbacks apply each change once.
    pharmacyStatus: text('pharmacy_status'),
    // The reason code of the pharmacy's hold in force (a code with `received`/`accepted`), so each change is noted once.
    pharmacyHold: text('pharmacy_hold'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('order_dispatches_round_idx').on(t.orderId, t.round),
    uniqueIndex('order_dispatches_key_idx').on(t.connectionId, t.idempotencyKey),
  ],
);

export type CallbackOutcome = 'applied' | 'duplicate' | 'stale' | 'unmatched' | 'bad_signature' | 'bad_payload';

/** Every inbound pharmacy callback, applied or not, so reconciliation can count what matched nothing. */
export const pharmacyCallbacks = pgTable(
  'pharmacy_callbacks',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    connectionId: text('connection_id').notNull(),
    callbackId: text('callback_id'),
    idempotencyKey: text('idempotency_key'),
    status: text('status'),
    orderId: text('order_id'),
    outcome: text('outcome').$type<CallbackOutcome>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('pharmacy_callbacks_scope_idx').on(t.tenantId, t.livemode, t.outcome, t.id)],
);
