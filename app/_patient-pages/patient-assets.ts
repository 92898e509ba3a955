import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where scripts/build-patient-pages.mjs writes (kept in step with PATIENT_OUT_DIR there). */
const OUT_DIR = 'dist/patient';

export interface PatientAsset {
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface PatientPageAssets {
  /** Each page's hydrating script by its address (`/_fr/flow-page-<hash>.js`, `/_fr/portal-page-<hash>.js`). */
  scripts: { flow: string; portal: string };
  /** The stylesheet's text, inlined in every page. */
  stylesheet: string;
  /** The scripts by address, with their compressed forms made at build time. */
  files: ReadonlyMap<string, PatientAsset>;
}

/**
 * The built assets, read once at start; a missing build is said plainly (npm run build, or npm start, makes it).
 * `prefix` is where the server serves the scripts (server/http/patient-pages.ts).
 */
export function loadPatientPageAssets(prefix: string, dir = OUT_DIR): PatientPageAssets {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`The patient pages are not built (${manifestFile} is missing): run npm run build.`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { scripts: { flow: string; portal: string }; stylesheet: string };
  const file = (name: string) => readFileSync(path.join(dir, name));
  const scripts = { flow: `${prefix}${manifest.scripts.flow}`, portal: `${prefix}${manifest.scripts.portal}` };
  const asset = (name: string): PatientAsset => ({ body: file(name), br: file(`${name}.br`), gzip: file(`${name}.gz`) });
  return {
    scripts,
    stylesheet: file(manifest.stylesheet).toString('utf8'),
    files: new Map([
      [scripts.flow, asset(manifest.scripts.flow)],
      [scripts.portal, asset(manifest.scripts.portal)],
    ]),
  };
}
