import { providerProcedure } from '@/server/api/procedures';
import { approveQuestionnaire } from '@/server/domain/intake/questionnaire-approval';
import { approveQuestionnaireMeta, ZApproveQuestionnaireRequest, ZApproveQuestionnaireResponse } from './approve-questionnaire.types';

/**
 * Provider-only (DESIGN decision 10): `providerProcedure` refuses API keys, admins, owners, operators and
 * providers without a verified NPI or two-factor authentication. No state license is asked for: a
 * questionnaire serves patients of every state the clinic treats.
 */
export const approveQuestionnaireRoute = providerProcedure
  .meta(approveQuestionnaireMeta)
  .input(ZApproveQuestionnaireRequest)
  .output(ZApproveQuestionnaireResponse)
  .mutation(({ ctx, input: { id, ...rest } }) => approveQuestionnaire(ctx.services.database.db, ctx.principal, id, rest));
