import type { PatientItem } from '@/components/intake/types';

/*
 * The public runtime's shapes as the patient's browser reads them (the wire contract of issue 23, "Public
 * runtime"): presentation copy, question shapes and theme variables, never rules or disqualifier logic.
 */

export interface PublicQuizQuestion {
  id: string;
  text: string;
  type: 'choice' | 'multi_choice' | 'boolean' | 'string';
  required: boolean;
  options?: { value: string; label: string }[];
}

export type PublicStep =
  | { id: string; kind: 'landing'; blocks: { headline: string; body?: string; cta?: string } }
  | { id: string; kind: 'quiz'; blocks: { title: string; body?: string; cta?: string }; questions: PublicQuizQuestion[] }
  | { id: string; kind: 'outcome'; blocks: { eligibleTitle: string; eligibleBody: string; disqualifiedTitle: string; disqualifiedBody: string; cta?: string } }
  | { id: string; kind: 'medical'; title: string; items: PatientItem[] }
  | { id: string; kind: 'consent'; title: string; text: string; version: string }
  | { id: string; kind: 'contact'; title: string; fields?: string[] };

export type StepOf<K extends PublicStep['kind']> = Extract<PublicStep, { kind: K }>;

export interface PublicFlow {
  flowId: string;
  versionId: string;
  sandbox: boolean;
  theme: { cssVariables: Record<string, string> };
  steps: PublicStep[];
  questionnaire: { key: string; version: number };
}

export interface CreatedSession {
  sessionId: string;
  versionId: string;
  expiresAt: string;
  arm: 'control' | 'variant' | null;
  variantKey: string | null;
  definition: PublicFlow;
}

export type Verdict = 'eligible' | 'disqualified' | 'incomplete';

export interface SessionOutcome {
  verdict: Verdict;
  message: string;
  title?: string;
  body?: string;
}

export interface SessionState {
  sessionId: string;
  versionId: string;
  status: 'open' | 'completed';
  completedStepIds: string[];
  nextStepId: string | null;
  arm: 'control' | 'variant' | null;
  variantKey: string | null;
  definition: PublicFlow;
  outcome: SessionOutcome | null;
}

export interface SubmitResult extends SessionOutcome {
  sessionId: string;
  certificate?: string;
  checkoutUrl?: string;
  sandbox: boolean;
  submissionId?: string;
}

/** Contact details as the contact step sends them. */
export interface ContactAnswers {
  name: string;
  email: string;
  state: string;
  dateOfBirth: string;
}
