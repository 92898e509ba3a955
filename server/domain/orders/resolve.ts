import { orders, patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { errors } from '@/server/lib/errors';
import { actorOf } from './actor';
import { toOrderDto } from './dto';
import { conflict, lockOrder, transition } from './lifecycle';

/**
 * Spec: resolve chooses the patient and, with `confirmAmber: true`, confirms the flagged fields. The order
 * is ready for approval once it has a patient and no flags; otherwise it stays a draft.
 */
export async function resolveOrder(db: Db, principal: TenantPrincipal, id: string, input: { patientId: string; confirmAmber: boolean }) {
  const s = scoped(db, principal);
  const existing = await s.require(orders, id, 'order');
  if (existing.status !== 'draft' && existing.status !== 'pending_approval') throw conflict(existing, 'resolved');
  if (!(await s.get(patients, input.patientId))) throw errors.validation('No patient of this tenant and mode has this id.', 'patientId', 'unknown_patient');
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || (order.status !== 'draft' && order.status !== 'pending_approval')) throw conflict(order ?? existing, 'resolved');
    const amberFields = input.confirmAmber ? [] : order.amberFields;
    const next = amberFields.length === 0 ? 'pending_approval' : 'draft';
    const moved = await transition(tx, principal, order, [order.status], next, actorOf(principal), {
      set: { patientId: input.patientId, amberFields },
      reasonCode: input.confirmAmber && order.amberFields.length ? 'amber_confirmed' : null,
    });
    return toOrderDto(moved!);
  });
}
