import { patients, type OrderStatus, type PatientAddress } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { UNAPPROVED } from '@/server/domain/orders/approval';
import { conflictNow, lockOrder, transition, type Actor } from '@/server/domain/orders/lifecycle';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { recordPatientSelfAccess } from '../access-log';
import { patientStateOf, type AddressInput } from '../patients';
import type { PatientPrincipal } from '../sign-in/patient-sessions';
import { patientOrderView, SHIPPING_EDITABLE } from './orders';
import { requireOwnRecord } from './profile';

/** The timeline's reason when a patient's move to another state sends their order back to a provider. */
export const SHIPPING_STATE_CHANGED = 'shipping_state_changed';

const toAddress = (a: AddressInput): PatientAddress => ({ line1: a.line1, line2: a.line2 ?? null, city: a.city, state: a.state, postalCode: a.postalCode, country: 'US' });

function notEditable(status: OrderStatus) {
  if (status === 'cancelled') return errors.conflict('This order was cancelled, so there is nothing to ship.', 'order_cancelled');
  return errors.conflict('This order has already gone to the pharmacy, so its shipping address can no longer be changed here. Contact your clinic.', 'order_already_dispatched');
}

/**
 * `PATCH /v1/patient/orders/{id}/shipping {address, phone?}` (DESIGN decision 40): before the order reaches a
 * pharmacy (draft, pending approval, approved), the patient changes where it ships. The address is the patient's
 * own (the record every order of theirs ships to), so it changes on their record. A new state of residence sends
 * the order back to `pending_approval` with the reason `shipping_state_changed` and the approval cleared, since a
 * provider's licence covers a state (a draft stays a draft, with the same reason on its timeline). A new phone
 * drops the consent to texts given for the old one. The order is locked first, so a dispatch cannot start between
 * the check and the change; the record, the order's move and its timeline entry, and the access-log entry are one
 * transaction. Anything after dispatch is 409 `order_already_dispatched`, nothing changed.
 */
export async function changeOrderShipping(db: Db, principal: PatientPrincipal, id: string, input: { address: AddressInput; phone?: string | null }, requestId: string | null) {
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || order.patientId !== principal.patientId) throw errors.notFound('order', id);
    if (!SHIPPING_EDITABLE.includes(order.status)) throw notEditable(order.status);
    const patient = await requireOwnRecord(tx, principal);
    const address = toAddress(input.address);
    const newPhone = input.phone !== undefined && input.phone !== patient.phone;
    const updated = await scoped(tx, principal).update(patients, patient.id, {
      address,
      state: address.state,
      ...(newPhone && { phone: input.phone ?? null, smsConsentAt: null, notifySms: false }),
      updatedAt: now(),
    });
    let current = order;
    if (patientStateOf(patient) !== address.state) {
      const actor: Actor = { kind: 'patient', id: principal.patientId };
      const to = order.status === 'draft' ? 'draft' : 'pending_approval';
      const moved = await transition(tx, principal, order, [order.status], to, actor, { reasonCode: SHIPPING_STATE_CHANGED, set: order.status === 'approved' ? UNAPPROVED : {} });
      if (!moved) throw await conflictNow(tx, principal, order, 'changed');
      current = moved;
    }
    await recordPatientSelfAccess(tx, principal, 'update', requestId);
    return patientOrderView(tx, principal, current, updated?.address ?? address);
  });
}
