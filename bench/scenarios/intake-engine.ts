import { ENGINE_TARGET_PER_SEC, figuresMarkdown, measureEngine, type EngineFigures } from '../intake-engine';
import { log, settings } from '../lib';
import type { Scenario } from './types';

// In process and independent of the database: measured once per bench run, whichever database comes first.
let figures: EngineFigures | undefined;
let measuredOn: string | undefined;

/** The eligibility engine alone (no server, no database): evaluations per second on a 40-item questionnaire. */
export const intakeEngineScenario: Scenario = {
  id: 'intake-engine',
  async run(ctx) {
    if (figures) return;
    log('intake-engine: measuring the engine in process');
    measuredOn = ctx.db;
    figures = measureEngine(Math.max(1, Math.min(settings.duration, 5)));
    ctx.section('intake-engine: eligibility engine, in process', figuresMarkdown(figures));
  },
  targets({ db }) {
    if (!figures || db !== measuredOn) return [];
    return [
      {
        target: `engine ≥ ${ENGINE_TARGET_PER_SEC.toLocaleString('en-US')} evaluations/s (40 items)`,
        db: '—',
        actual: `${Math.round(figures.evaluatePerSec).toLocaleString('en-US')}/s`,
        pass: figures.evaluatePerSec >= ENGINE_TARGET_PER_SEC,
      },
    ];
  },
};
