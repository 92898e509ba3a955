import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const DUNNING_STAGES = ['healthy', 'grace', 'warning', 'restricted', 'suspended', 'recovered'] as const;
export type DunningStage = (typeof DUNNING_STAGES)[number];
export const SUBSCRIPTION_STATUSES = ['none', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export type PaymentsProviderKind = 'simulated' | 'stripe';

/**
 * One billing account per tenant and mode (DESIGN decision 29, docs/decisions/billing.md): the live one is
 * what the clinic pays and what its plan cap follows; the sandbox one is a rehearsal on the simulated provider
 * that never moves the tenant's real plan. Created on first use with the defaults below.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    provider: text('provider').$type<PaymentsProviderKind>().notNull().default('simulated'),
    // The live account's plan is mirrored to tenants.plan (the cap) in the same transaction.
    plan: text('plan').notNull().default('free'),
    status: text('status').$type<SubscriptionStatus>().notNull().default('none'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id'),
    stage: text('stage').$type<DunningStage>().notNull().default('healthy'),
    stageChangedAt: timestamp('stage_changed_at', { withTimezone: true }),
    // The first failed payment of the invoice now past due: the dunning clock starts here.
    firstFailedAt: timestamp('first_failed_at', { withTimezone: true }),
    attemptCount: integer('attempt_count').notNull().default(0),
    amountDueCents: integer('amount_due_cents').notNull().default(0),
    // When the worker must next look at this account (a stage boundary, a renewal, a cancellation).
    nextActionAt: timestamp('next_action_at', { withTimezone: true }),
    graceExtended: boolean('grace_extended').notNull().default(false),
    graceExtendedAt: timestamp('grace_extended_at', { withTimezone: true }),
    // Simulated provider only: the card on file declines until the owner pays through the portal page.
    simulatedCardDeclines: boolean('simulated_card_declines').notNull().default(false),
    // Sandbox only: whole days the account's test clock was moved forward in total (POST /v1/billing/test-clock/advance).
    // The clock moves by moving the account's own instants back by as much (server/domain/billing/test-clock.ts).
    testClockDays: integer('test_clock_days').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('billing_accounts_scope_idx').on(t.tenantId, t.livemode),
    index('billing_accounts_next_action_idx').on(t.nextActionAt),
    index('billing_accounts_customer_idx').on(t.customerId),
  ],
);

/** Every stage change, with its time and cause: the dunning history the console and ops read. */
export const billingStageChanges = pgTable(
  'billing_stage_changes',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    fromStage: text('from_stage').$type<DunningStage>().notNull(),
    toStage: text('to_stage').$type<DunningStage>().notNull(),
    // payment_failed | payment_succeeded | schedule | grace_extended | period_paid
    cause: text('cause').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('billing_stage_changes_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/**
 * The simulated provider's checkout and portal sessions. The id is a 128-bit bearer secret (it is the whole
 * address of the page), single use for checkouts, and expires.
 */
export const billingSessions = pgTable(
  'billing_sessions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    kind: text('kind').$type<'checkout' | 'portal'>().notNull(),
    plan: text('plan'),
    couponCode: text('coupon_code'),
    percentOff: integer('percent_off').notNull().default(0),
    // open | paid | declined | expired
    status: text('status').notNull().default('open'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('billing_sessions_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/** Payment-provider events already applied, so a redelivered webhook changes nothing the second time. */
export const billingProviderEvents = pgTable(
  'billing_provider_events',
  {
    provider: text('provider').$type<PaymentsProviderKind>().notNull(),
    eventId: text('event_id').notNull(),
    tenantId: text('tenant_id'),
    type: text('type').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
