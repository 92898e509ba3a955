import { router } from '@/server/api/trpc';
import { generateFlowRoute } from './generate-flow';

export const flowsRouter = router({
  generate: generateFlowRoute,
});
