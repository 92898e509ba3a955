import type { RouterOutputs } from '@/web/console/types';

/** What the portal's pages receive, inferred from the patient endpoints (DESIGN decision 40). */
export type PortalInfo = RouterOutputs['publicPatients']['getPatientPortal'];
export type PatientProfile = RouterOutputs['patient']['getPatientProfile'];
export type PatientOrderSummary = RouterOutputs['patient']['listPatientOrders'][number];
export type PatientOrder = RouterOutputs['patient']['getPatientOrder'];
export type PatientSubmission = RouterOutputs['patient']['listPatientSubmissions'][number];
export type PatientAddress = NonNullable<PatientProfile['shippingAddress']>;

/** What the portal's first page shows a signed-in patient. */
export type PatientHome = { profile: PatientProfile; orders: PatientOrderSummary[]; submissions: PatientSubmission[] };
