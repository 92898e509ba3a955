import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

type Outputs = inferRouterOutputs<AppRouter>;

/** The patient-safe questionnaire, as the router returns it (no rules). */
export type PatientQuestionnaire = Outputs['intake']['getHostedIntake']['questionnaire'];
export type PatientItem = PatientQuestionnaire['items'][number];
/** What a patient is told after submitting. */
export type PatientOutcome = Outputs['intake']['submitHostedIntake'];

/** Problems by linkId (or `form` for the whole form), in words for the patient. */
export type FieldErrors = Record<string, string>;
