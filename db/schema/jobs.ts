import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The outbox: work written in the same transaction as the state change that needs it, then claimed by
 * any worker with FOR UPDATE SKIP LOCKED. Generic over `kind` (webhook delivery, pharmacy dispatch, …).
 * Finished jobs are deleted; `dead` ones stay for inspection until retention removes them.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    // Null for platform jobs that belong to no tenant.
    tenantId: text('tenant_id'),
    livemode: boolean('livemode').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<'pending' | 'dead'>().notNull().default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    // A worker owns a job until its lease ends; a crashed worker's job is claimable again afterwards.
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('jobs_due_idx').on(t.runAt).where(sql`${t.status} = 'pending'`)],
);
