import { keyOrUserProcedure } from '@/server/api/procedures';
import { generateFlowDraft } from '@/server/domain/flows/ai-generate';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import { llmFromConfig } from '@/server/integrations/llm';
import { generateFlowMeta, ZGenerateFlowRequest, ZGenerateFlowResponse } from './generate-flow.types';

export const generateFlowRoute = keyOrUserProcedure
  .meta(generateFlowMeta)
  .input(ZGenerateFlowRequest)
  .output(ZGenerateFlowResponse)
  .mutation(async ({ ctx, input }) => {
    const { flow, questionnaire } = await generateFlowDraft(ctx.services.database.db, ctx.principal, input.description, llmFromConfig(ctx.services.config));
    return {
      id: flow.id,
      object: 'flow' as const,
      name: flow.name,
      status: flow.status,
      livemode: flow.livemode,
      origin: flow.origin,
      draft: flow.draft,
      draftClinicalPlaneHash: clinicalPlaneHash(flow.draft, questionnaire),
      activeVersion: null,
      pendingVersion: null,
      pendingClinicalChanges: null,
      embedKeys: [],
      createdAt: flow.createdAt.toISOString(),
      updatedAt: flow.updatedAt.toISOString(),
      archivedAt: null,
    };
  });
