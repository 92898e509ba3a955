import { boolean, date, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { tenants } from './tenants';

export type FlowStatus = 'active' | 'archived';
export type FlowVersionStatus = 'pending_approval' | 'published' | 'superseded' | 'withdrawn';

/**
 * A funnel (DESIGN decision 23). The editable draft lives on the flow; publishing snapshots it into a
 * `flow_versions` row. Holds no PHI: it is the clinic's copy, theme and question layout.
 */
export const flows = pgTable(
  'flows',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name').notNull(),
    status: text('status').$type<FlowStatus>().notNull(),
    draft: jsonb('draft').$type<FlowDocumentShape>().notNull(),
    // The version patients get, and the one waiting for a provider (at most one).
    activeVersionId: text('active_version_id'),
    pendingVersionId: text('pending_version_id'),
    // 'ai' for drafts made by POST /flows/ai/generate.
    origin: text('origin').$type<'staff' | 'ai'>().notNull(),
    createdBy: text('created_by').notNull(),
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('flows_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

/** An immutable snapshot of a flow's document, with the clinical-plane hash a provider approved. */
export const flowVersions = pgTable(
  'flow_versions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    flowId: text('flow_id').notNull(),
    number: integer('number').notNull(),
    status: text('status').$type<FlowVersionStatus>().notNull(),
    document: jsonb('document').$type<FlowDocumentShape>().notNull(),
    // The questionnaire version the clinical plane is pinned to.
    questionnaireId: text('questionnaire_id').notNull(),
    questionnaireKey: text('questionnaire_key').notNull(),
    questionnaireVersion: integer('questionnaire_version').notNull(),
    clinicalPlaneHash: text('clinical_plane_hash').notNull(),
    publishedBy: text('published_by').notNull(),
    // The provider whose approval of this clinical-plane hash stands behind the version.
    approvedBy: text('approved_by'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    // True when a provider approved this very version, false when it re-used an earlier approval of the same hash.
    approvedHere: boolean('approved_here').notNull().default(false),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('flow_versions_scope_idx').on(t.tenantId, t.livemode, t.id), uniqueIndex('flow_versions_number_idx').on(t.flowId, t.number)],
);

export type FlowSessionStatus = 'open' | 'completed';

/**
 * A patient's run (DESIGN decision 24). The id is 128 random bits and is the session's bearer secret. Ids,
 * the arm and the verdict only; what the patient typed lives in `flow_session_answers`.
 */
export const flowSessions = pgTable(
  'flow_sessions',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    flowId: text('flow_id').notNull(),
    flowVersionId: text('flow_version_id').notNull(),
    embedKeyId: text('embed_key_id').notNull(),
    // Experiments issue: the arm this session was assigned, null when none ran.
    experimentId: text('experiment_id'),
    variantKey: text('variant_key').$type<'control' | 'variant'>(),
    status: text('status').$type<FlowSessionStatus>().notNull(),
    verdict: text('verdict').$type<'eligible' | 'disqualified'>(),
    submissionId: text('submission_id'),
    // Campaign id from the embed (`cid`), a short code, never personal.
    campaign: text('campaign'),
    checkoutCompletedAt: timestamp('checkout_completed_at', { withTimezone: true }),
    externalOrderId: text('external_order_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('flow_sessions_scope_idx').on(t.tenantId, t.livemode, t.id),
    index('flow_sessions_flow_idx').on(t.flowId, t.createdAt),
    // One store order id belongs to one checkout per tenant and mode: the index decides parallel callbacks.
    uniqueIndex('flow_sessions_external_order_idx').on(t.tenantId, t.livemode, t.externalOrderId),
  ],
);

/** PHI: a session's held answers (clinical, quiz, consent and contact), by step. Never returned to anyone. */
export const flowSessionAnswers = pgTable('flow_session_answers', {
  sessionId: text('session_id').primaryKey(),
  tenantId: text('tenant_id').notNull(),
  livemode: boolean('livemode').notNull(),
  // stepId → that step's answers, as last saved.
  steps: jsonb('steps').$type<Record<string, Record<string, unknown>>>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * What a session has already counted (`view`, `viewed:<stepId>`, `completed:<stepId>`, `qualified`, …): the
 * insert that succeeds is the one that bumps the aggregate, so retries are accepted and counted once.
 */
export const flowSessionMarks = pgTable(
  'flow_session_marks',
  {
    sessionId: text('session_id').notNull(),
    mark: text('mark').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.mark] })],
);

/**
 * Per flow, version, day, step and experiment arm counters (DESIGN decision 26), bumped in the transaction
 * that counts the mark. Flow-level counters use step_id ''; no experiment is experiment_id '' and arm ''.
 */
export const flowStatsDaily = pgTable(
  'flow_stats_daily',
  {
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    flowId: text('flow_id').notNull(),
    flowVersionId: text('flow_version_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    stepId: text('step_id').notNull(),
    experimentId: text('experiment_id').notNull(),
    arm: text('arm').notNull(),
    /**
     * 0..15, drawn at random per write: the flow-level row of a day is bumped by every session of the flow, so
     * one row would serialise all of them on its lock; reads sum the shards (docs/decisions/flows.md,
     * "Counting (decision 26)").
     */
    shard: smallint('shard').notNull().default(0),
    views: integer('views').notNull().default(0),
    sessions: integer('sessions').notNull().default(0),
    qualified: integer('qualified').notNull().default(0),
    disqualified: integer('disqualified').notNull().default(0),
    stepViews: integer('step_views').notNull().default(0),
    completes: integer('completes').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.flowId, t.day, t.flowVersionId, t.stepId, t.experimentId, t.arm, t.shard] })],
);
