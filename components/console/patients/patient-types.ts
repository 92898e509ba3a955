import type { RouterOutputs } from '@/web/console/types';

/** The patient answers the console reads, inferred from the router. PHI. */
export type Patient = RouterOutputs['patients']['getPatient'];
export type AccessLogEntry = RouterOutputs['patients']['listPatientAccessLog'][number];
