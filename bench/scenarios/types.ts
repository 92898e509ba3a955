import type { LoadSpec, Measurement } from '../lib';
import type { DbKind, RunningServer } from '../servers';

/** What a scenario gets for one database: a started server (fresh database) and a way to measure load. */
export interface ScenarioContext {
  db: DbKind;
  server: RunningServer;
  /** This run's bare node:http baseline, measured first. */
  baseline: Measurement;
  /** Warm-up plus one measured autocannon run against `server`, RSS sampled; recorded in the results. */
  measure(spec: LoadSpec): Promise<Measurement>;
  /** A new tenant with a live secret key, made through the ops endpoints. */
  newTenant(name: string): Promise<{ tenantId: string; key: string }>;
  /** A titled markdown section for figures that are not request rates (webhook pipeline …). */
  section(title: string, markdown: string): void;
}

/** One target of the design, checked per database against this run's figures. */
export interface TargetCheck {
  target: string;
  db: string;
  actual: string;
  pass: boolean;
}

export interface TargetInput {
  db: DbKind;
  /** This scenario's measurements on `db`, by case name. */
  results: Map<string, Measurement>;
  baseline: Measurement;
  /** The server's RSS once started and settled, before any load (MB; null when unknown). */
  idleRssMb: number | null;
}

/**
 * A benchmark scenario: sets up its own data on the server it is given, measures one or more cases (each a
 * row of the table), and names the targets those cases must meet. Add new ones to `scenarios/index.ts`.
 */
export interface Scenario {
  /** Short id, used by BENCH_SCENARIOS=id,id to select. */
  id: string;
  run(ctx: ScenarioContext): Promise<void>;
  targets?(input: TargetInput): TargetCheck[];
}
