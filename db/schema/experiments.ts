import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ExperimentOverrideShape } from '@/server/domain/flows/shared/shapes';

export type ExperimentStatus = 'running' | 'stopped';

/**
 * A presentation-only A/B test on a flow (DESIGN decision 27). The overrides are the variant: copy patches of
 * presentation steps and the reserved `$flow` patch (theme tokens, order of presentation steps). Never
 * changes; stopping only sets the status, the recorded winner and the stop time.
 */
export const experiments = pgTable(
  'experiments',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    livemode: boolean('livemode').notNull(),
    flowId: text('flow_id').notNull(),
    // The version the overrides were checked against: the active one, or null when started on the draft.
    flowVersionId: text('flow_version_id'),
    name: text('name').notNull(),
    status: text('status').$type<ExperimentStatus>().notNull(),
    // The variant's share of sessions in basis points (splitPct × 100): the assignment compares buckets 0–9999 to it.
    splitBasisPoints: integer('split_basis_points').notNull(),
    overrides: jsonb('overrides').$type<ExperimentOverrideShape[]>().notNull(),
    winnerVariant: text('winner_variant'),
    createdBy: text('created_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    foldedInAt: timestamp('folded_in_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('experiments_scope_idx').on(t.tenantId, t.livemode, t.id),
    index('experiments_flow_idx').on(t.flowId, t.id),
    // At most one running experiment per flow, whatever races: the second insert fails and answers 409.
    uniqueIndex('experiments_one_running_idx').on(t.flowId).where(sql`status = 'running'`),
  ],
);
