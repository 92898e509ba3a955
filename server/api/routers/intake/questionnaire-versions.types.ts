import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_KEY } from '@/server/domain/intake/questionnaire-schema';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaire } from './questionnaire.types';

/** The console's questionnaire library: whoever may read questionnaires over /v1 (catalog managers, providers). */
export const consoleQuestionnaireVersionsMeta: ProcedureMeta = { scope: [...QUESTIONNAIRE_SCOPES] };

export const ZQuestionnaireVersionsRequest = z.object({
  key: z.string().regex(QUESTIONNAIRE_KEY, 'a questionnaire key').optional(),
});
const ZProtocolLine = z.object({
  productId: z.string(),
  productName: z.string().nullable(),
  form: z.string().nullable(),
  strength: z.string().nullable(),
  productActive: z.boolean().nullable(),
  quantity: z.number().int(),
  sig: z.string(),
  refills: z.number().int(),
});
/** What the version's protocol prescribes (DESIGN decision 45); null when the document names no protocol. */
const ZQuestionnaireProtocol = z.object({ id: z.string(), name: z.string(), active: z.boolean(), items: z.array(ZProtocolLine) });

export const ZQuestionnaireVersionsResponse = z.array(ZQuestionnaire.extend({ protocol: ZQuestionnaireProtocol.nullable() }));

