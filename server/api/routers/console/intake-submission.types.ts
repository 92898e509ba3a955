import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZIntakeSubmission, ZSubmissionIdentity, zSubmissionId } from '../intake/submission.types';

const ZPerson = z.object({
  name: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  sexAtBirth: z.string().nullable(),
  state: z.string().nullable(),
  email: z.string().nullable(),
});

/** The console's review page: whoever may list submissions (the /v1 scopes). */
export const consoleIntakeSubmissionMeta: ProcedureMeta = { scope: ['patients.read', 'intake.review'] };

export const ZConsoleSubmissionRequest = zSubmissionId;
export const ZConsoleSubmissionResponse = ZIntakeSubmission.extend({
  patientState: z.string().nullable().meta({ description: "The submission's state (else the patient's), for the reviewer's license check" }),
  // Console only: both people of a flagged patient match (PHI; reading them is logged).
  identity: ZSubmissionIdentity.extend({ existing: ZPerson.extend({ patientId: z.string() }), submitted: ZPerson }).nullable(),
});
