import { keyOrUserProcedure } from '@/server/api/procedures';
import { generateFlowDraft } from '@/server/domain/flows/ai-generate';
import { llmFromConfig } from '@/server/integrations/llm';
import { generateFlowMeta, ZGenerateFlowRequest, ZGenerateFlowResponse } from './generate-flow.types';

export const generateFlowRoute = keyOrUserProcedure
  .meta(generateFlowMeta)
  .input(ZGenerateFlowRequest)
  .output(ZGenerateFlowResponse)
  .mutation(({ ctx, input }) => generateFlowDraft(ctx.services.database.db, ctx.principal, input.description, llmFromConfig(ctx.services.config)));
