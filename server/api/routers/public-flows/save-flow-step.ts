import { embedProcedure } from '@/server/api/procedures';
import { saveStep } from '@/server/domain/flows/runtime/steps';
import { saveFlowStepMeta, ZSaveFlowStepRequest, ZSaveFlowStepResponse } from './save-flow-step.types';

export const saveFlowStepRoute = embedProcedure
  .meta(saveFlowStepMeta)
  .input(ZSaveFlowStepRequest)
  .output(ZSaveFlowStepResponse)
  .mutation(({ ctx, input }) => saveStep(ctx.services.database.db, ctx.embed, input.id, { stepId: input.stepId, answers: input.answers }));
