import type { patients } from '@/db/schema';
import type { LineCodes } from '@/server/domain/routing/choose';
import type { DispatchOrder } from '@/server/integrations/pharmacies';
import type { OrderRow } from './lifecycle';

export type PatientRow = typeof patients.$inferSelect;

/** What the pharmacy receives of an order: its lines in the pharmacy's codes, the patient and the prescriber. */
export function toDispatchOrder(order: OrderRow, { patient, codes, prescriber }: { patient: PatientRow; codes: Map<string, LineCodes>; prescriber: DispatchOrder['prescriber'] }): DispatchOrder {
  const address = patient.address;
  return {
    orderId: order.id,
    livemode: order.livemode,
    items: order.items.map((i) => ({ ...i, sku: codes.get(i.productId)?.sku ?? i.productId, itemCode: codes.get(i.productId)?.itemCode ?? '' })),
    patient: {
      id: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: patient.dateOfBirth,
      sex: patient.sex,
      phone: patient.phone,
      email: patient.email,
      address: { line1: address?.line1 ?? '', line2: address?.line2 ?? null, city: address?.city ?? '', state: address?.state ?? '', postalCode: address?.postalCode ?? '', country: address?.country ?? 'US' },
    },
    prescriber,
  };
}
