import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwind from '@tailwindcss/postcss';
import { build } from 'esbuild';
import postcss from 'postcss';

/**
 * The patient pages' own assets (docs/decisions/flows.md, "The patient pages' weight"): the hosted flow page, the
 * widget's frame and the patient portal's pages are rendered by the custom server (app/_patient-pages/) and
 * hydrated by one small script per kind of page, not by Next.js's client runtime. Built here, beside the server,
 * by `npm run build` and on a start that finds them missing or older than their sources: the scripts (the page's
 * components on preact/compat, minified, named by their content and compressed ahead of time) and the stylesheet
 * (Tailwind over the patient components only, inlined in each page, so the first paint waits for no second request).
 */
export const PATIENT_OUT_DIR = 'dist/patient';
export const PATIENT_MANIFEST = path.join(PATIENT_OUT_DIR, 'manifest.json');
// Each page's script by its name in the manifest: one bundle per page, so neither carries the other's components.
const SCRIPT_ENTRIES = { flow: 'app/_patient-pages/flow-page.client.tsx', portal: 'app/_patient-pages/portal-page.client.tsx' };
const STYLESHEET = 'app/_patient-pages/patient.css';
const PREACT_FOR_REACT = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
};

/** Builds into `outDir` (the tests build into a directory of their own). */
export async function buildPatientPages(outDir = PATIENT_OUT_DIR) {
  const scripts = await Promise.all(Object.entries(SCRIPT_ENTRIES).map(async ([page, entry]) => ({ page, code: await bundle(entry) })));
  const css = await postcss([tailwind({ optimize: { minify: true } })]).process(readFileSync(STYLESHEET, 'utf8'), { from: STYLESHEET });

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const names = {};
  for (const { page, code } of scripts) {
    const name = `${page}-page-${createHash('sha256').update(code).digest('base64url').slice(0, 12)}.js`;
    writeFileSync(path.join(outDir, name), code);
    writeFileSync(path.join(outDir, `${name}.br`), brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(path.join(outDir, `${name}.gz`), gzipSync(code, { level: 9 }));
    names[page] = name;
  }
  writeFileSync(path.join(outDir, 'patient.css'), css.css);
  writeFileSync(path.join(outDir, 'manifest.json'), JSON.stringify({ scripts: names, stylesheet: 'patient.css', builtAt: new Date().toISOString() }));
  return { scripts: names, bytes: Object.fromEntries(scripts.map(({ page, code }) => [page, code.length])), cssBytes: css.css.length };
}

async function bundle(entry) {
  const built = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    // What the patient pages promise to run on: the browsers of the last few years on phones and desktops.
    target: ['chrome100', 'safari15', 'firefox100'],
    define: { 'process.env.NODE_ENV': '"production"' },
    // React's API on Preact in the browser (docs/decisions/flows.md, "The patient pages' weight"): the server
    // renders with React, the page hydrates with preact/compat, a tenth of react-dom's size to parse and run.
    alias: PREACT_FOR_REACT,
    tsconfig: 'tsconfig.json',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  return built.outputFiles[0].contents;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  const built = await buildPatientPages();
  console.log(`Patient pages built into ${PATIENT_OUT_DIR}/ in ${Date.now() - started} ms (scripts ${JSON.stringify(built.bytes)} B, stylesheet ${built.cssBytes} B)`);
}
