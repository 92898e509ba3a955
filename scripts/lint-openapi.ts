import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  pointer: string;
}

const CONFIG_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'redocly');
const CLI = path.join(CONFIG_DIR, '../../node_modules/@redocly/cli/bin/cli.js');
// Offline and quiet: no usage telemetry and no update check against the npm registry.
const OFFLINE_ENV = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

/** Every problem (error or warning) Redocly CLI's recommended rules find in `doc`; empty when it is clean. */
export async function lintOpenApi(doc: unknown): Promise<LintProblem[]> {
  // The ignore file names the document by its path relative to itself, so all three sit in one scratch dir.
  const dir = mkdtempSync(path.join(tmpdir(), 'fr-openapi-lint-'));
  try {
    for (const file of ['redocly.yaml', '.redocly.lint-ignore.yaml']) copyFileSync(path.join(CONFIG_DIR, file), path.join(dir, file));
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    const args = [CLI, 'lint', '--config', path.join(dir, 'redocly.yaml'), '--format', 'json', path.join(dir, 'openapi.json')];
    // redocly exits 1 when it finds errors; the JSON report on stdout is the answer either way.
    const stdout = await promisify(execFile)(process.execPath, args, { env: { ...process.env, ...OFFLINE_ENV }, maxBuffer: 64 << 20 })
      .then((r) => r.stdout)
      .catch((e: { stdout?: string }) => e.stdout ?? '');
    const report = JSON.parse(stdout) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    return report.problems.map((p) => ({ ruleId: p.ruleId, severity: p.severity, message: p.message, pointer: p.location[0]?.pointer ?? '' }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Generates the types an integrator would (openapi-typescript) beside a copy of the example client
 * (tests/fixtures/openapi-client.example.ts) and type-checks it under --strict; the tsc output, empty when it
 * compiles. tests/no-database/openapi.test.ts runs the same example against a live service.
 */
export async function typecheckGeneratedClient(doc: unknown): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  // Under .data (git-ignored, outside tsconfig and lint) so that openapi-fetch resolves from the project's node_modules.
  mkdirSync('.data', { recursive: true });
  const dir = mkdtempSync(path.resolve('.data/openapi-client-'));
  try {
    writeFileSync(path.join(dir, 'openapi-types.ts'), astToString(await openapiTS(doc as never)));
    copyFileSync('tests/fixtures/openapi-client.example.ts', path.join(dir, 'example.ts'));
    const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2023', 'dom'], types: ['node'] };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.ts'] }));
    const checked = await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', dir]).catch((e: { stdout?: string; stderr?: string }) => e);
    return `${checked.stdout ?? ''}${checked.stderr ?? ''}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// `npm run lint:openapi` (a CI step): the served document passes Redocly's recommended rules, and a client
// generated from it type-checks. Both run here only, not again inside the test suite.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { appRouter } = await import('../server/api/root');
  const { buildRouteTable } = await import('../server/api/route-table');
  const { buildOpenApiDocument } = await import('../server/api/openapi');
  const { buildPharmacyProtocolDocument } = await import('../server/integrations/pharmacies/protocol/openapi');
  const doc = buildOpenApiDocument(appRouter, buildRouteTable(appRouter));
  // The pharmacy protocol (GET /v1/pharmacy-protocol/openapi.json) is a published contract too: the same rules.
  const [apiProblems, protocolProblems, tscOutput] = await Promise.all([lintOpenApi(doc), lintOpenApi(buildPharmacyProtocolDocument()), typecheckGeneratedClient(doc)]);
  const problems = [...apiProblems, ...protocolProblems];
  for (const p of apiProblems) console.error(`${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`);
  for (const p of protocolProblems) console.error(`pharmacy protocol: ${p.severity} ${p.ruleId} ${p.pointer}: ${p.message}`);
  console.log(problems.length ? `OpenAPI lint: ${problems.length} problem(s)` : 'OpenAPI lint: clean (Redocly recommended), the API and the pharmacy protocol');
  if (tscOutput) console.error(tscOutput);
  console.log(tscOutput ? 'Generated client: does not type-check' : 'Generated client (openapi-typescript + openapi-fetch): type-checks under --strict');
  process.exit(problems.length || tscOutput ? 1 : 0);
}
