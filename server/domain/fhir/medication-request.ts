import type { Coding, MedicationRequest } from '@medplum/fhirtypes';
import type { OrderStatus, orders, products } from '@/db/schema';
import { orderLineFhirId, toFhirId } from './shared/ids';
import { SYSTEMS } from './systems';

type OrderRow = typeof orders.$inferSelect;
type ProductRow = Pick<typeof products.$inferSelect, 'id' | 'name' | 'strength' | 'form' | 'ndc' | 'rxcui'>;

/** DESIGN decision 42: the order's status as the MedicationRequest's. */
export const MEDICATION_REQUEST_STATUS: Record<OrderStatus, MedicationRequest['status']> = {
  draft: 'draft',
  pending_approval: 'draft',
  approved: 'active',
  submitting: 'active',
  submitted: 'active',
  accepted: 'active',
  shipped: 'active',
  delivered: 'completed',
  cancelled: 'cancelled',
  rejected: 'stopped',
};

/** The product as the medication: its name and strength, coded with NDC and RxNorm when the product has them. */
function medicationOf(product: ProductRow | undefined, productId: string): MedicationRequest['medicationCodeableConcept'] {
  if (!product) return { text: productId };
  const text = product.strength ? `${product.name} ${product.strength}` : product.name;
  const coding: Coding[] = [];
  if (product.ndc) coding.push({ system: SYSTEMS.ndc, code: product.ndc, display: text });
  if (product.rxcui) coding.push({ system: SYSTEMS.rxnorm, code: product.rxcui, display: text });
  return { coding: coding.length ? coding : undefined, text };
}

export interface OrderLineContext {
  order: OrderRow;
  index: number;
  product: ProductRow | undefined;
  /** The approving provider's display name, when known. */
  approverName: string | null;
}

/**
 * One line of an order as a MedicationRequest: intent `order`, sig as `dosageInstruction.text`, quantity and
 * refills as the dispense request, the approving provider as `requester`, the approval time as `authoredOn`.
 * The lines of one order share `groupIdentifier` (the order's id). PHI by association.
 */
export function toFhirMedicationRequest({ order, index, product, approverName }: OrderLineContext): MedicationRequest {
  const item = order.items[index]!;
  const approved = order.approvedAt && order.approvedBy;
  return {
    resourceType: 'MedicationRequest',
    id: orderLineFhirId(order.id, index),
    meta: { lastUpdated: order.updatedAt.toISOString() },
    identifier: [{ use: 'usual', system: SYSTEMS.orderId, value: `${order.id}#${index + 1}` }],
    groupIdentifier: { system: SYSTEMS.orderId, value: order.id },
    status: MEDICATION_REQUEST_STATUS[order.status],
    // A rejection's reason code names no patient (decision 8): the EHR sees why the line stopped.
    statusReason: order.status === 'rejected' && order.rejectionReasonCode ? { text: order.rejectionReasonCode } : undefined,
    intent: 'order',
    priority: order.priority === 'urgent' ? 'urgent' : 'routine',
    medicationCodeableConcept: medicationOf(product, item.productId),
    // An order created before its patient was chosen (a draft) names no one yet.
    subject: order.patientId ? { reference: `Patient/${toFhirId(order.patientId)}` } : { display: 'Patient not yet chosen' },
    authoredOn: approved ? order.approvedAt!.toISOString() : undefined,
    requester: approved ? { reference: `Practitioner/${toFhirId(order.approvedBy!)}`, ...(approverName ? { display: approverName } : {}) } : undefined,
    dosageInstruction: [{ text: item.sig }],
    dispenseRequest: {
      quantity: { value: item.quantity, ...(product ? { unit: product.form } : {}) },
      numberOfRepeatsAllowed: item.refills,
    },
  };
}
