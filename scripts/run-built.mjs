import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildPatientPages, PATIENT_MANIFEST } from './build-patient-pages.mjs';
import { buildServer, OUT_DIR, STAMP } from './build-server.mjs';

/**
 * `npm start`, `npm run worker` and `npm run cli` run the compiled server (dist/server/<entry>.mjs). It is
 * built on the first run, and again whenever a source is newer than the build (a few milliseconds to check),
 * so a changed checkout never runs stale code. Usage: node scripts/run-built.mjs [start|worker|cli] [args…];
 * the entry's own arguments follow. A process forked by WEB_CONCURRENCY runs this file with no entry: start.
 */
const ENTRIES = ['start', 'worker', 'cli'];
const SOURCES = ['server', 'bin', 'db/schema', 'web', 'components', 'app/base-layer.css', 'app/_patient-pages', 'sdk/src', 'scripts', 'package.json', 'tsconfig.json'];

const entry = ENTRIES.includes(process.argv[2]) ? process.argv.splice(2, 1)[0] : 'start';

function newestSource() {
  let newest = 0;
  for (const root of SOURCES) {
    if (!existsSync(root)) continue;
    const files = statSync(root).isDirectory() ? readdirSync(root, { recursive: true }).map((f) => path.join(root, String(f))) : [root];
    for (const f of files) if (/\.(ts|tsx|mjs|json|css)$/.test(f)) newest = Math.max(newest, statSync(f).mtimeMs);
  }
  return newest;
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const newest = newestSource();
if (!existsSync(path.join(OUT_DIR, `${entry}.mjs`)) || newest > built) {
  await buildServer();
}
// The patient pages' script and stylesheet (scripts/build-patient-pages.mjs), which the server reads at start.
if (entry === 'start' && (!existsSync(PATIENT_MANIFEST) || newest > statSync(PATIENT_MANIFEST).mtimeMs)) {
  await buildPatientPages();
}
await import(path.resolve(OUT_DIR, `${entry}.mjs`));
