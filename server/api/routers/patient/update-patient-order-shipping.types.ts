import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPatientAddressInput, zPhone } from '@/server/api/routers/patients/patients.types';
import { PATIENT_ERRORS, ZPatientOrder } from './patient.types';

export const updatePatientOrderShippingMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'PATCH',
    path: '/patient/orders/{id}/shipping',
    tags: ['patient portal'],
    summary: 'The signed-in patient changes where an order ships, until it goes to the pharmacy; a new state sends it back for a provider’s review',
    description:
      "The address (and phone, when sent) is the patient's own, so it changes on their record. A new state of residence returns the order to pending_approval with the reason shipping_state_changed: a provider's licence covers a state. A new phone number ends the consent to texts given for the old one.",
    errorResponses: {
      ...PATIENT_ERRORS,
      400: 'A malformed address or phone',
      404: "No such order of this patient (any other patient's order is a 404 too)",
      409: 'order_already_dispatched: the order has gone to a pharmacy; order_cancelled: the order was cancelled. Nothing changed',
    },
  },
};
export const ZUpdatePatientOrderShippingRequest = z.strictObject({
  id: zId('Order'),
  address: ZPatientAddressInput,
  phone: zPhone.nullable().optional().meta({ description: 'A phone for the delivery (E.164 or a 10-digit US number); null removes it; absent keeps it' }),
});
export const ZUpdatePatientOrderShippingResponse = ZPatientOrder;
