import { router } from '@/server/api/trpc';
import { createExperimentRoute } from './create-experiment';
import { foldInExperimentRoute } from './fold-in-experiment';
import { listExperimentsRoute } from './list-experiments';
import { stopExperimentRoute } from './stop-experiment';

// `/flows/experiments/{expId}/…` has four segments; no `/flows/{id}/…` path does, so neither family shadows the other.
export const experimentsRouter = router({
  create: createExperimentRoute,
  list: listExperimentsRoute,
  stop: stopExperimentRoute,
  foldIn: foldInExperimentRoute,
});
