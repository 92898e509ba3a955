import { isDeepStrictEqual } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { orderDispatches, orders, patients, users, type ApprovalSnapshot } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { isLicensedIn } from '@/server/domain/auth/licenses';
import { patientStateOf } from '@/server/domain/patients/patients';
import { errors } from '@/server/lib/errors';
import { SYSTEM } from './actor';
import { conflictNow, transition, unchangedSince, type MoveGuard, type OrderRow } from './lifecycle';

type PatientRow = typeof patients.$inferSelect;

/** Why an approval no longer covers a dispatch; each is the reason code on the order's timeline. */
export type ApprovalLapse =
  | 'approval_snapshot_missing'
  | 'patient_changed_since_approval'
  | 'items_changed_since_approval'
  | 'approver_not_authorized'
  | 'approver_not_licensed';

const WHY: Record<ApprovalLapse, string> = {
  approval_snapshot_missing: 'nothing records what the provider approved',
  patient_changed_since_approval: "the patient's identity or state changed since the provider approved it",
  items_changed_since_approval: 'its prescription lines changed since the provider approved it',
  approver_not_authorized: 'the approving provider may no longer approve orders',
  approver_not_licensed: "the approving provider is not licensed in the patient's current state",
};

/** What the provider approves: taken from the very rows the approval read and guards (`unchangedWithPatient`). */
export function approvalSnapshot(order: Pick<OrderRow, 'items'>, patient: PatientRow, state: string): ApprovalSnapshot {
  return { patientId: patient.id, firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth, sex: patient.sex, state, items: order.items };
}

/** The approver as a dispatch needs them: named to the pharmacy as prescriber, and checked again. */
export interface Approver {
  role: string;
  name: string | null;
  npi: string | null;
  npiVerifiedAt: Date | null;
  licensedStates: string[];
  deactivatedAt: Date | null;
}

/** The order's approver, only as a user of the order's tenant (users have no mode). */
export async function approverOf(q: Queryable, scope: Scope, userId: string | null): Promise<Approver | null> {
  if (!userId) return null;
  const [row] = await q
    .select({ role: users.role, name: users.name, npi: users.npi, npiVerifiedAt: users.npiVerifiedAt, licensedStates: users.licensedStates, deactivatedAt: users.deactivatedAt })
    .from(users)
    .where(scoped(q, scope).where(users, eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

export const prescriberFrom = (a: Pick<Approver, 'npi' | 'name'> | null) => (a?.npi ? { npi: a.npi, name: a.name ?? '' } : null);

/**
 * Whether the approval still covers sending the order as it now stands: the patient and lines the
 * provider approved, and an approver who is still an active, verified provider licensed in the patient's
 * current state. Null when it does.
 */
export function approvalLapse(order: OrderRow, patient: PatientRow, approver: Approver | null): ApprovalLapse | null {
  const snapshot = order.approvalSnapshot;
  if (!snapshot) return 'approval_snapshot_missing';
  const state = patientStateOf(patient) ?? '';
  // `intake` records where the approval came from; it is not something a later change can invalidate.
  const { items: approvedItems, intake: _intake, ...approvedPatient } = snapshot;
  const { items: _items, ...currentPatient } = approvalSnapshot(order, patient, state);
  if (!isDeepStrictEqual(approvedPatient, currentPatient)) return 'patient_changed_since_approval';
  if (!isDeepStrictEqual(approvedItems, order.items)) return 'items_changed_since_approval';
  if (!approver || approver.role !== 'provider' || approver.deactivatedAt || !approver.npiVerifiedAt) return 'approver_not_authorized';
  if (!isLicensedIn(approver, state)) return 'approver_not_licensed';
  return null;
}

/** The answer to a submit that found the approval lapsed (the order is back in pending_approval by then). */
export const approvalStale = (lapse: ApprovalLapse) =>
  errors.forbidden(`This order needs a new provider approval: ${WHY[lapse]}. It is back in pending_approval.`, 'approval_stale');

/**
 * Makes a move require the order *and its patient* unchanged since they were read (`xmin` of both rows),
 * so what an approval snapshots and sends is what the row still holds when the move commits.
 */
export const unchangedWithPatient = (version: string, patientVersion: string | null): MoveGuard =>
  patientVersion === null
    ? unchangedSince(version)
    : {
        key: 'version+patient',
        where: () =>
          sql`${orders}.xmin = ${sql.placeholder('version')}::xid and exists (select 1 from ${patients} where ${patients.id} = ${orders.patientId} and ${patients}.xmin = ${sql.placeholder('patientVersion')}::xid)`,
        values: { version, patientVersion },
      };

/** What an approval leaves on the order; cleared when the order goes back to the approval queue. */
export const UNAPPROVED = { approvedAt: null, approvedBy: null, approvalSnapshot: null };

/**
 * The order goes back to the approval queue, with the lapse as the timeline's reason, instead of being
 * sent. From `submitting` (the outbox job) its unsent dispatch round is closed in the same transaction, so
 * a late send of it is told to cancel (dispatch.ts, recordOtherwise).
 */
export async function withdrawApproval(q: Queryable, scope: Scope, order: OrderRow, lapse: ApprovalLapse, opts: { guard?: MoveGuard; dispatchId?: string } = {}) {
  await q.transaction(async (tx) => {
    const round = opts.dispatchId ? order.dispatchRound : undefined;
    const moved = await transition(tx, scope, order, [order.status], 'pending_approval', SYSTEM, { reasonCode: lapse, set: UNAPPROVED, guard: opts.guard, round });
    if (!moved) throw await conflictNow(tx, scope, order, 'submitted');
    if (opts.dispatchId) {
      await tx.update(orderDispatches).set({ status: 'cancelled' }).where(scoped(tx, scope).where(orderDispatches, eq(orderDispatches.id, opts.dispatchId), eq(orderDispatches.status, 'pending')));
    }
  });
}
