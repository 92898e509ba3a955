import type { RouterInputs, RouterOutputs } from '@/web/console/types';

/** The experiment shapes as the `experiments` router answers them, so the page and its procedures cannot disagree. */
export type Experiment = RouterOutputs['experiments']['list'][number];
export type ExperimentAnalysis = Experiment['analysis'];
export type ExperimentArms = Experiment['results'];
export type ExperimentOverride = RouterInputs['experiments']['create']['overrides'][number];
