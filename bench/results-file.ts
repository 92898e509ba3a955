import fs from 'node:fs';
import { markdownTable } from './lib';
import type { TargetCheck } from './scenarios/types';

/**
 * bench/RESULTS.md (issue 35, item 5): one current section per scenario, the one its latest run wrote, and at
 * the top every scenario's targets from those sections. A run replaces only the sections of the scenarios it
 * ran; earlier figures live in git (`git log -p bench/RESULTS.md`), not in the file.
 */

/** The bare node:http JSON baseline on a quiet night on this project's machine (req/s); BENCH_QUIET_BASELINE overrides. */
export const QUIET_BASELINE_RPS = Number(process.env.BENCH_QUIET_BASELINE || 58_000);

/** A run's date as its section's heading gives it: `2026-11-28 02:03:05 UTC`. */
export const runDate = () => new Date().toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');

export interface ScenarioReport {
  id: string;
  /** Markdown of the section, below its heading. */
  body: string;
  checks: TargetCheck[];
  /** False when the run's baseline was below half the quiet figure: the machine was busy, so nothing here counts. */
  kept: boolean;
  date: string;
}

const HEADER = `# Benchmark results

Written by \`npm run bench\` (\`bench/run.ts\`) and \`npm run soak\`. Each section is the latest run of one
scenario; a run replaces the sections of the scenarios it ran and leaves the others. Earlier runs are in git
(\`git log -p bench/RESULTS.md\`). Each run measures a bare \`node:http\` JSON server as the baseline, then the
real server as \`npm start\` runs it (Next.js loaded, production mode, \`npm start\`'s NODE_OPTIONS; rate limits
raised out of the way) on a fresh PGlite data directory and a scratch PostgreSQL database. Figures compare only
within one run on one machine; the ratios to a floor measured in the same run are the portable numbers.

A run is kept only when the machine was quiet: its baseline must reach half the quiet figure of the machine it
ran on (\`BENCH_QUIET_BASELINE\`, default 58,000 req/s, measured on the machine of the 2026-11-28 00:23 session;
the 03:18 session's machine answers 15,452–16,555 req/s idle, vmstat 99% idle, so its runs use 16,000);
otherwise its section says **not kept**. Each section gives the load average at the run's start and end and
the quiet figure it was held to.

Run: \`npm run bench\` — env \`BENCH_SCENARIOS=keys,flows,…\` (subset), \`BENCH_DBS=postgres\` (or \`pglite\`),
\`BENCH_DURATION\` (s per case, default 10), \`BENCH_WARMUP\` (default 2), \`BENCH_CONNECTIONS\` (default 50),
\`BENCH_PG=0\`, \`BENCH_PG_URL\`, \`BENCH_NO_NEXT=1\` (API only), \`BENCH_WEB_CONCURRENCY=N\` (N web processes on
PostgreSQL), \`BENCH_SERVER_NODE_ARGS\` (e.g. \`--cpu-prof\`; \`npx tsx bench/profile-layers.ts\` reads a profile by layer),
\`BENCH_SAME_SQL_ROUNDS\`, \`BENCH_KEEP_DB=1\`.
Scenarios live in \`bench/scenarios/\`; the soak in \`bench/soak/\` (\`npm run soak\`, \`SOAK_SECONDS\`);
\`lighthouse\` scores the patient pages with Lighthouse (mobile) in Debian's Chromium (\`BENCH_CHROMIUM\`, default
\`/usr/bin/chromium\`), once per run, on the first database.
`;

const SECTION = /<!-- scenario:([\w-]+) -->\n([\s\S]*?)<!-- \/scenario:\1 -->\n?/g;
const CHECKS = /<!-- checks:(.*?) -->/;

interface Stored {
  body: string;
  checks: TargetCheck[];
  kept: boolean;
  date: string;
}

function readSections(file: string): Map<string, Stored> {
  const found = new Map<string, Stored>();
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  for (const [, id, content] of text.matchAll(SECTION)) {
    const meta = CHECKS.exec(content);
    const parsed = meta ? (JSON.parse(meta[1]) as { checks: TargetCheck[]; kept: boolean; date: string }) : { checks: [], kept: true, date: '' };
    found.set(id, { body: content.replace(CHECKS, '').replace(/^\n+/, ''), ...parsed });
  }
  return found;
}

/** A figure as the summary shows it: one long account (the soak's list of refused requests) would widen every row of the table; the section keeps it whole. */
const BRIEF_CHARS = 100;
const brief = (text: string) => (text.length > BRIEF_CHARS ? `${text.slice(0, BRIEF_CHARS - 1)}… (see its section)` : text);

/** Replaces the reported scenarios' sections of `file` and rewrites the targets at the top from every section. */
export function updateResults(file: string, reports: ScenarioReport[], order: string[]): void {
  const sections = readSections(file);
  for (const r of reports) {
    const heading = `## ${r.id}: run of ${r.date}${r.kept ? '' : ' — not kept (busy machine)'}`;
    sections.set(r.id, { body: `${heading}\n\n${r.body.trim()}\n`, checks: r.checks, kept: r.kept, date: r.date });
  }
  const ids = [...order.filter((id) => sections.has(id)), ...[...sections.keys()].filter((id) => !order.includes(id))];
  const summary = markdownTable(
    ['scenario', 'target', 'db', 'measured', 'result'],
    ids.flatMap((id) => {
      const s = sections.get(id)!;
      return s.checks.map((c) => [`${id}${s.kept ? '' : ' (not kept)'}`, c.target, c.db, brief(c.actual), c.pass ? 'PASS' : 'MISS']);
    }),
  );
  const parts = ids.map((id) => {
    const s = sections.get(id)!;
    const meta = JSON.stringify({ checks: s.checks, kept: s.kept, date: s.date }).replace(/>/g, '\\u003e');
    return `<!-- scenario:${id} -->\n<!-- checks:${meta} -->\n${s.body.trim()}\n<!-- /scenario:${id} -->\n`;
  });
  fs.writeFileSync(file, [HEADER, '## Targets (the latest run of each scenario)', '', summary, '', ...parts].join('\n'));
}
