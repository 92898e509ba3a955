import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZIntakeSubmission, zSubmissionId } from '../intake/submission.types';

/** The console's review page: whoever may list submissions (the /v1 scopes). */
export const consoleIntakeSubmissionMeta: ProcedureMeta = { scope: ['patients.read', 'intake.review'] };

export const ZConsoleSubmissionRequest = zSubmissionId;
export const ZConsoleSubmissionResponse = ZIntakeSubmission.extend({
  patientState: z.string().nullable().meta({ description: "The patient's shipping state, for the reviewer's license check" }),
});
