import { keyOrUserProcedure } from '@/server/api/procedures';
import { createAiDraft } from '@/server/domain/intake/ai-draft';
import { llmFromConfig } from '@/server/integrations/llm';
import { draftQuestionnaireMeta, ZDraftQuestionnaireRequest, ZDraftQuestionnaireResponse } from './draft-questionnaire.types';

export const draftQuestionnaireRoute = keyOrUserProcedure
  .meta(draftQuestionnaireMeta)
  .input(ZDraftQuestionnaireRequest)
  .output(ZDraftQuestionnaireResponse)
  .mutation(({ ctx, input }) => createAiDraft(ctx.services.database.db, ctx.principal, input.description, llmFromConfig(ctx.services.config)));
