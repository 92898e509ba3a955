import type { z } from 'zod';
import type { ZPatient, ZPatientAccessLogEntry } from '@/server/api/routers/patients/patients.types';

/** The /v1/patients answers the console reads, as the API's own schemas declare them. PHI. */
export type Patient = z.output<typeof ZPatient>;
export type PatientAddress = NonNullable<Patient['address']>;
export type AccessLogEntry = z.output<typeof ZPatientAccessLogEntry>;
