import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZIntakeSubmission, ZSubmissionIdentity, zSubmissionId } from './submission.types';

const ZPerson = z.object({
  name: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  sexAtBirth: z.string().nullable(),
  state: z.string().nullable(),
  email: z.string().nullable(),
});

/** The console's review page: whoever may list submissions (the /v1 scopes); the person only with patients.read. */
export const consoleIntakeSubmissionMeta: ProcedureMeta = { scope: ['patients.read', 'intake.review'] };

const ZMeasure = z.object({ value: z.number(), unit: z.string() });

/** The person a provider reviews (DESIGN decision 33). PHI: each read is written to the patient's access log. */
export const ZSubmissionPerson = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  dateOfBirth: z.string().meta({ description: 'YYYY-MM-DD' }),
  ageAtSubmission: z.number().int().nullable().meta({ description: 'Whole years on the day of the submission (UTC)' }),
  sexAtBirth: z.enum(['female', 'male', 'intersex', 'unknown']),
  state: z.string().nullable().meta({ description: 'State of residence (two letters); null when unknown' }),
  bmi: z
    .object({ value: z.number(), height: ZMeasure, weight: ZMeasure })
    .nullable()
    .meta({ description: 'BMI from the answered height and weight (the pair the rules name, else the items measured in cm/in and kg/lb); null when not both answered' }),
});

export const ZConsoleSubmissionRequest = zSubmissionId;
export const ZConsoleSubmissionResponse = ZIntakeSubmission.extend({
  patientState: z.string().nullable().meta({ description: "The submission's reconciled state (else the patient's), for the reviewer's license check (no PHI on its own)" }),
  questionnaireTitle: z.string().nullable(),
  flow: z.object({ id: z.string(), name: z.string(), versionId: z.string(), versionNumber: z.number().int() }).nullable().meta({ description: 'The flow version the run came through' }),
  reviewerLicensed: z.boolean().nullable().meta({ description: "Whether the signed-in provider is licensed in the patient's state; null when the caller is no provider or the state is unknown" }),
  person: ZSubmissionPerson.nullable().meta({ description: 'The person, to a caller holding patients.read (logged as intake_read); else null' }),
  // Console only: both people of a flagged patient match (PHI; reading them is logged).
  identity: ZSubmissionIdentity.extend({ existing: ZPerson.extend({ patientId: z.string() }), submitted: ZPerson }).nullable(),
});
