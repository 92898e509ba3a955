import { orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Database } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { NOT_RESUMING, resumeOr, type Resumption } from '@/server/domain/developer/resumption';
import { patientStateOf } from '@/server/domain/patients/patients';
import { errors } from '@/server/lib/errors';
import { actorOf } from './actor';
import { approvalLapse, approvalStale, approverOf, prescriberFrom, withdrawApproval } from './approval';
import { meteredTransaction, readOrder } from './approve';
import { sendFromRequest, startDispatch, type DispatchDeps } from './dispatch';
import { toOrderDto } from './dto';
import { conflict } from './lifecycle';
import { committedMove } from './resume';

/**
 * Submits a provider-approved order that is waiting to be (re)dispatched, e.g. after a reroute, the way
 * approve does (approve.ts) with the approval it already has: checked again, since the patient, the lines
 * or the approver may have changed since. An order no provider approved is refused with 403
 * `order_not_approved`; one already dispatched is a 409.
 */
export function submitOrder(database: Database, principal: TenantPrincipal, id: string, deps: DispatchDeps, resume: Resumption = NOT_RESUMING) {
  return resumeOr(resume, (since) => committedMove(database.db, principal, id, 'approved', since), async () => {
    const outcome = await meteredTransaction(database, principal, async (q) => {
      const read = await readOrder(q, principal, id);
      const { order, patient } = read;
      if (!order.approvedAt) throw errors.forbidden('A licensed provider has not approved this order; only approved orders can be submitted.', 'order_not_approved');
      if (order.status !== 'approved') throw conflict(order, 'submitted');
      if (!patient) throw errors.notFound('patient', order.patientId ?? '');
      const approver = await approverOf(q, principal, order.approvedBy);
      const lapse = approvalLapse(order, patient, approver);
      // Committed before the refusal: the order must wait for a provider, not for another submit.
      if (lapse) {
        await withdrawApproval(q, principal, order, lapse, { guard: read.unchanged });
        return { lapse, round: null };
      }
      const round = await startDispatch(q, principal, read, ['submitting'], actorOf(principal), { patient, state: patientStateOf(patient), prescriber: prescriberFrom(approver) }, deps);
      return { lapse: null, round };
    });
    if (outcome.lapse) throw approvalStale(outcome.lapse);
    const sent = await sendFromRequest(database.db, principal, outcome.round, deps);
    return toOrderDto(sent ?? (await scoped(database.db, principal).require(orders, id, 'order')));
  });
}
