import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

/*
 * The public runtime's shapes as the patient's browser reads them, inferred from the router (the wire contract
 * of issue 23, "Public runtime"): presentation copy, question shapes and theme variables, never rules.
 */
type Outputs = inferRouterOutputs<AppRouter>['publicFlows'];

export type PublicFlow = Outputs['getPublicFlow'];
export type PublicStep = PublicFlow['steps'][number];
export type StepOf<K extends PublicStep['kind']> = Extract<PublicStep, { kind: K }>;
export type PublicQuizQuestion = StepOf<'quiz'>['questions'][number];

export type CreatedSession = Outputs['createFlowSession'];
export type SessionState = Outputs['getFlowSession'];
export type SubmitResult = Outputs['submitFlowSession'];
/** What a patient is told at the end of a run (the submit answer, or a completed session's outcome). */
export type SessionOutcome = NonNullable<SessionState['outcome']>;

/** Contact details as the contact step sends them (flat: the address's state is `state`). */
export interface ContactAnswers {
  name: string;
  email: string;
  state: string;
  dateOfBirth: string;
  phone: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postalCode: string;
  /** Consent to text messages at `phone` (DESIGN decision 41); optional, unticked by default. */
  smsConsent: boolean;
}
