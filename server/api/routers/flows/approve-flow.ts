import { providerProcedure } from '@/server/api/procedures';
import { approveFlow } from '@/server/domain/flows/publish';
import { approveFlowMeta, ZApproveFlowRequest, ZApproveFlowResponse } from './approve-flow.types';

/**
 * Provider-only (DESIGN decisions 10 and 23), through the same gate as questionnaire approval
 * (`providerProcedure`): API keys, admins, owners, operators and providers without a verified NPI or
 * two-factor authentication get 403. No state license is asked for: a flow serves every state the clinic treats.
 */
export const approveFlowRoute = providerProcedure
  .meta(approveFlowMeta)
  .input(ZApproveFlowRequest)
  .output(ZApproveFlowResponse)
  .mutation(({ ctx, input: { id, ...binding } }) => approveFlow(ctx.services.database.db, ctx.principal, id, binding));
