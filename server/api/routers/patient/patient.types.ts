import * as z from '@/server/lib/zod';
import { ZPatientAddress } from '@/server/api/routers/patients/patients.types';

/** Errors every patient endpoint may answer (DESIGN decision 40). */
export const PATIENT_ERRORS = {
  401: "No patient session, an ended or unknown one (invalid_patient_session), or another credential: API keys and console sessions are refused (patient_session_required)",
  429: "Too many requests in this patient's session",
};

export const ZPatientNotifications = z
  .object({
    email: z.boolean().meta({ description: 'Notices by e-mail' }),
    sms: z.boolean().meta({ description: 'Notices by text message' }),
    smsAvailable: z.boolean().meta({ description: 'Whether texts can be turned on: the record holds a phone given with consent to texts' }),
  })
  .meta({ id: 'PatientNotifications' });

export const ZPatientProfile = z
  .object({
    object: z.literal('patient_profile'),
    livemode: z.boolean(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable().meta({ description: 'E.164, or null' }),
    shippingAddress: ZPatientAddress.nullable(),
    state: z.string().nullable().meta({ description: 'State of residence (two-letter code)' }),
    notifications: ZPatientNotifications,
  })
  .meta({ id: 'PatientProfile', description: "The signed-in patient's own record as the portal shows it: contact, shipping and notice choices" });

const zOrderStatus = z.enum(['draft', 'pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'delivered', 'rejected', 'cancelled']);

const ZPatientMedication = z
  .object({
    name: z.string().meta({ description: 'The medication or supply' }),
    strength: z.string().nullable(),
    quantity: z.number().int(),
    sig: z.string().meta({ description: 'How to take or use it' }),
    refills: z.number().int(),
  })
  .meta({ id: 'PatientMedication' });

const ZPatientShipment = z
  .object({
    carrier: z.string(),
    trackingNumber: z.string(),
    trackingUrl: z.string().nullable().meta({ description: "The carrier's tracking page (http or https only), or null" }),
    estimatedDelivery: z.string().nullable().meta({ description: 'Estimated delivery date, when the pharmacy gave one' }),
    shippedAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
  })
  .meta({ id: 'PatientShipment' });

const orderFields = {
  id: z.string().meta({ description: 'Order id (ord_…)' }),
  object: z.literal('patient_order'),
  status: zOrderStatus.meta({ description: "The order's status code; statusLabel says it in words" }),
  statusLabel: z.string().meta({ description: 'The status in plain words (e.g. "On its way")' }),
  nextStep: z.string().meta({ description: 'What happens next; for a rejected or cancelled order, what the clinic will do' }),
  medications: z.array(ZPatientMedication),
  shipment: ZPatientShipment.nullable().meta({ description: 'Carrier and tracking once the pharmacy has shipped it' }),
  canChangeShipping: z.boolean().meta({ description: 'True until the order goes to a pharmacy: PATCH …/shipping is then accepted' }),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const ZPatientOrderSummary = z.object(orderFields).meta({ id: 'PatientOrderSummary', description: "One of the patient's orders, in plain words" });

export const ZPatientOrder = z
  .object({
    ...orderFields,
    pharmacy: z.object({ name: z.string() }).nullable().meta({ description: 'The pharmacy filling it, once chosen' }),
    shippingAddress: ZPatientAddress.nullable().meta({ description: 'Where it ships: the patient’s address' }),
    timeline: z
      .array(
        z.object({
          status: zOrderStatus,
          label: z.string().meta({ description: 'The step in plain words' }),
          note: z.string().nullable().meta({ description: 'Why, when the patient should know (their own change of state)' }),
          at: z.string(),
        }),
      )
      .meta({ description: 'What happened to the order, oldest first' }),
  })
  .meta({ id: 'PatientOrder', description: "One of the patient's orders with its timeline, pharmacy and tracking" });

export const ZPatientSubmission = z
  .object({
    object: z.literal('patient_submission'),
    reference: z.string().nullable().meta({ description: 'The short reference shown when it was sent (e.g. 7KQ2-M9XD)' }),
    submittedAt: z.string(),
    outcome: z.enum(['pending_review', 'disqualified', 'approved', 'rejected']),
    outcomeLabel: z.string().meta({ description: 'The outcome in plain words' }),
    nextStep: z.string().meta({ description: 'What happens next' }),
    orderId: z.string().nullable().meta({ description: 'The order made from it, once a provider approved it' }),
  })
  .meta({ id: 'PatientSubmission', description: 'A questionnaire the patient sent: reference, date and outcome only (never rules, flags or notes)' });
