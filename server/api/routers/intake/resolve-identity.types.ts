import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZIntakeSubmission } from './submission.types';

export const resolveIdentityMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 200,
  openapi: {
    method: 'POST',
    path: '/intake/submissions/{id}/resolve-identity',
    tags: ['intake'],
    summary: "Resolve a submission's patient match (identity_mismatch): keep it on the matched patient, or move it to a new patient made from the submission",
    description:
      'A live public submission whose e-mail matched a patient with a different date of birth, sex at birth or last name is flagged and cannot be approved until a provider or an admin resolves it. Neither choice changes the matched record. The decision is recorded (who, when) and written to the access log of each patient record concerned.',
    errorResponses: {
      400: 'Bad body',
      403: 'Not a signed-in provider or admin (API keys and other roles cannot resolve)',
      404: 'No such submission on this tenant in this mode',
      409: 'Already resolved (identity_already_resolved), never flagged (identity_not_flagged), or `new` without the person’s facts (identity_facts_incomplete)',
    },
  },
};

export const ZResolveIdentityRequest = z.strictObject({
  id: zId('Intake submission'),
  patient: z.enum(['existing', 'new']).meta({ description: 'existing: the matched patient is the person; new: create a patient from the submission and move it there' }),
});
export const ZResolveIdentityResponse = ZIntakeSubmission;
