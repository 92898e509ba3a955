import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime, zId } from '@/server/api/schemas/common';

export const createHostedLinkMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'patients.write',
  successStatus: 201,
  // The url holds the link's token: a replay must not hand it out again from the idempotency store.
  secretFields: ['url'],
  // The mail leaves the system after the link commits.
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/intake/hosted-links',
    tags: ['intake'],
    summary: "Mail a patient a one-time link (/i/{token}, 7 days, single use) to answer the current approved version of a questionnaire",
    errorResponses: {
      400: 'A missing or invalid field (named in param)',
      403: 'Missing patients.write',
      404: 'No such patient, or no approved questionnaire with this key, in this mode',
      409: 'The patient has no e-mail address (patient_email_missing)',
    },
  },
};
export const ZCreateHostedLinkRequest = z.strictObject({
  patientId: zId('Patient'),
  questionnaireKey: z.string().min(1).max(64).meta({ description: 'Key of an approved questionnaire; the version current when the patient answers is used' }),
});
export const ZCreateHostedLinkResponse = z
  .object({
    id: z.string().meta({ description: 'Link id (ihl_…)' }),
    object: z.literal('intake_hosted_link'),
    livemode: z.boolean(),
    patientId: z.string(),
    questionnaireKey: z.string(),
    expiresAt: zDateTime,
    createdAt: zDateTime,
    url: z
      .string()
      .nullable()
      .meta({ description: 'The link as mailed, shown once (a bearer secret: anyone holding it can answer for the patient); null on an idempotent replay' }),
  })
  .meta({ id: 'IntakeHostedLink' });
