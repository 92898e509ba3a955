import { router } from '@/server/api/trpc';
import { approveFlowRoute } from './approve-flow';
import { archiveFlowRoute } from './archive-flow';
import { createFlowRoute } from './create-flow';
import { generateFlowRoute } from './generate-flow';
import { getFlowRoute } from './get-flow';
import { listFlowVersionsRoute } from './list-flow-versions';
import { listFlowsRoute } from './list-flows';
import { publishFlowRoute } from './publish-flow';
import { updateFlowRoute } from './update-flow';

// The first matching path wins: procedures with fixed segments under /flows (`/flows/ai/generate`) go above
// the `{id}` ones. No path here has a literal where another has `{id}` in the same position with the same
// method and length, so the order below is otherwise free.
export const flowsRouter = router({
  generate: generateFlowRoute,
  list: listFlowsRoute,
  create: createFlowRoute,
  get: getFlowRoute,
  update: updateFlowRoute,
  versions: listFlowVersionsRoute,
  publish: publishFlowRoute,
  approve: approveFlowRoute,
  archive: archiveFlowRoute,
});
