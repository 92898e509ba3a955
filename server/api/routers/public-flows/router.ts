import { router } from '@/server/api/trpc';
import { createFlowSessionRoute } from './create-flow-session';
import { getFlowSessionRoute } from './get-flow-session';
import { getPublicFlowRoute } from './get-public-flow';
import { recordFlowEventRoute } from './record-flow-event';
import { saveFlowStepRoute } from './save-flow-step';
import { submitFlowSessionRoute } from './submit-flow-session';

export const publicFlowsRouter = router({
  getPublicFlow: getPublicFlowRoute,
  createFlowSession: createFlowSessionRoute,
  getFlowSession: getFlowSessionRoute,
  saveFlowStep: saveFlowStepRoute,
  submitFlowSession: submitFlowSessionRoute,
  recordFlowEvent: recordFlowEventRoute,
});
