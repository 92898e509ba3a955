import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZListSubmissionsRequest } from './list-submissions.types';
import { ZIntakeSubmission } from './submission.types';

/** The console's review queue: GET /v1/intake/submissions's page with the patients by name (PHI: patients.read only). */
export const consoleIntakeSubmissionsMeta: ProcedureMeta = { scope: ['patients.read', 'intake.review'] };

export const ZConsoleSubmissionsRequest = ZListSubmissionsRequest;
export const ZConsoleSubmissionsResponse = z.array(
  ZIntakeSubmission.extend({
    patient: z
      .object({ id: z.string(), firstName: z.string(), lastName: z.string(), dateOfBirth: z.string(), ageAtSubmission: z.number().int().nullable(), state: z.string().nullable() })
      .nullable()
      .meta({ description: 'The patient, to a caller holding patients.read (each one shown is logged as `list`); else null' }),
  }),
);
