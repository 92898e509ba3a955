import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';
import { buildFloorPage } from '../lighthouse-floor';
import { BenchError, log, markdownTable, onCleanup } from '../lib';
import { startStaticPage, tempDir, type DbKind } from '../servers';
import { setupWorld } from './flows';
import type { Scenario, TargetCheck } from './types';

/** Debian's Chromium: the bench never downloads a browser. BENCH_CHROMIUM points elsewhere. */
const CHROMIUM = process.env.BENCH_CHROMIUM || '/usr/bin/chromium';
// BENCH_LH_REPORTS=<dir>: every audit's full report as JSON there (long tasks, main-thread breakdown), to find where TBT goes.
const REPORTS_DIR = process.env.BENCH_LH_REPORTS;
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** Lighthouse's own advice on variance: several runs, the median one by performance score. */
const RUNS = 3;
/** An audit under this score is listed under the table when its category misses (Lighthouse colours it not green). */
const AUDIT_PASS = 0.9;

const TARGET = { performance: 95, accessibility: 100, bestPractices: 95, jsCssKb: 120, lcpMs: 2000, tbtMs: 100 };

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  lcpMs: number;
  tbtMs: number;
  fcpMs: number;
  speedIndexMs: number;
  cls: number;
  /** Compressed bytes over the wire (transferSize) of Script and Stylesheet requests, KB of 1024 B. */
  scriptKb: number;
  styleKb: number;
  /** Script and style inside the HTML itself, uncompressed (it travels within the document's transfer). */
  inlineKb: number;
  failing: string[];
  runScores: number[];
}

interface Page {
  label: string;
  path: string;
  /** The floor has no targets: it is what the targets are read against. */
  floor?: boolean;
}

/** One pass per bench run, on the first database it reaches (the figures are the browser's, not the database's). */
let ranOn: DbKind | null = null;
const checks: TargetCheck[] = [];

/**
 * Issue 55 (1): the patient pages as a phone sees them, scored by Lighthouse 12.2.3 with its default mobile
 * settings (emulated Moto G Power, simulated slow 4G and 4× CPU slowdown) in Debian's Chromium, next to the
 * floor: the flow's first step as static HTML without any script, served by bare node:http in the same run.
 */
export const lighthouseScenario: Scenario = {
  id: 'lighthouse',

  async run(ctx) {
    if (ranOn) return;
    ranOn = ctx.db;
    if (!fs.existsSync(CHROMIUM)) return ctx.section('Patient pages in Lighthouse', `Skipped: no Chromium at ${CHROMIUM} (BENCH_CHROMIUM).`);
    const w = await setupWorld(ctx.server.baseUrl, ctx.server.opsKey, `${ctx.db}-lighthouse`);
    const pages: Page[] = [
      { label: 'hosted flow page /f/{embedKey}', path: `/f/${w.embed}` },
      // Loaded top-level, as a visitor opening the frame's address would: not framed, so it renders the flow.
      { label: 'widget frame /embed/frame?k=&t=flow', path: `/embed/frame?k=${w.embed}&t=flow` },
      { label: 'patient portal sign-in /p/{embedKey}', path: `/p/${w.embed}` },
    ];
    const floorFile = path.join(tempDir('fr-bench-lighthouse-'), 'floor.html');
    fs.writeFileSync(floorFile, await buildFloorPage(ctx.server.baseUrl, pages[0].path));
    // Gzipped like the real server's pages: the floor must differ from them by the script only.
    const floorServer = await startStaticPage(floorFile, 'text/html; charset=utf-8', { gzip: true });

    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    onCleanup(() => chrome.kill());
    const rows: string[][] = [];
    const notes: string[] = [];
    let environment = '';
    try {
      const all: Array<Page & { baseUrl: string }> = [
        ...pages.map((p) => ({ ...p, baseUrl: ctx.server.baseUrl })),
        { label: 'floor: /f/{embedKey} without scripts, CSS inlined, bare node:http', path: '/', floor: true, baseUrl: floorServer.baseUrl },
      ];
      for (const page of all) {
        const url = `${page.baseUrl}${page.path}`;
        const runs: Result[] = [];
        // As a campaign's patients find it: viewed before, so from the render cache (its first view renders it, uncompressed).
        await fetch(url, { headers: { 'sec-fetch-dest': 'document' } });
        for (let i = 0; i < RUNS; i++) runs.push(await audit(url, chrome.port));
        if (REPORTS_DIR) runs.forEach((r, i) => fs.writeFileSync(path.join(REPORTS_DIR, `${page.label.replace(/\W+/g, '-')}-${i}.json`), JSON.stringify(r)));
        const median = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'))[Math.floor(RUNS / 2)];
        environment ||= `Lighthouse ${median.lighthouseVersion}, ${chromiumVersion()} (${CHROMIUM}, ${CHROME_FLAGS.join(' ')})`;
        const f = figures(median, await inlineKb(url), runs.map((r) => score(r, 'performance')));
        log(`lighthouse ${page.label}: performance ${f.performance} (runs ${f.runScores.join(', ')}), LCP ${ms(f.lcpMs)} ms, TBT ${ms(f.tbtMs)} ms, JS+CSS ${kb(f.scriptKb + f.styleKb)} KB`);
        rows.push([page.label, `${f.performance} (${f.runScores.join('/')})`, String(f.accessibility), String(f.bestPractices), ms(f.lcpMs), ms(f.tbtMs), ms(f.fcpMs), ms(f.speedIndexMs), f.cls.toFixed(3), kb(f.scriptKb), kb(f.styleKb), kb(f.scriptKb + f.styleKb), kb(f.inlineKb)]);
        if (f.failing.length) notes.push(`- ${page.label}: ${f.failing.join('; ')}`);
        if (!page.floor) checks.push(...targetChecks(page.label, ctx.db, f));
      }
    } finally {
      chrome.kill();
      await floorServer.child.stop();
    }
    ctx.section(
      `Patient pages in Lighthouse, mobile (${ctx.db})`,
      [
        `${environment}; default mobile config (emulated Moto G Power, simulated throttling: slow 4G, 4× CPU), categories ${CATEGORIES.join(', ')}. ` +
          `Each page is audited ${RUNS} times; the row is the median run by performance score (Lighthouse's advice), every run's score in brackets. ` +
          'JS/CSS KB: compressed bytes transferred (transferSize) of the Script and Stylesheet requests of the first load, 1 KB = 1024 B; ' +
          'inline KB: script and style inside the HTML, uncompressed. The floor is the same first step of the flow as static HTML with every script removed ' +
          'and the stylesheets inlined, served gzipped by bare node:http in the same run; it has no targets.',
        '',
        markdownTable(
          ['page', 'performance', 'accessibility', 'best practices', 'LCP ms', 'TBT ms', 'FCP ms', 'Speed Index ms', 'CLS', 'JS KB', 'CSS KB', 'JS+CSS KB', 'inline KB'],
          rows,
          [false, true, true, true, true, true, true, true, true, true, true, true, true],
        ),
        '',
        ...(notes.length ? [`Audits under ${AUDIT_PASS} in the categories a page misses (LCP, TBT or JS+CSS over target count as performance; id: title, score):`, '', ...notes] : []),
      ].join('\n'),
    );
  },

  targets({ db }) {
    return db === ranOn ? checks : [];
  },
};

/** One Lighthouse navigation in the launched Chromium; Lighthouse clears the origin's cache and storage first. */
async function audit(url: string, port: number): Promise<Result> {
  const result = await lighthouse(url, { port, logLevel: 'error', onlyCategories: [...CATEGORIES] });
  if (!result) throw new BenchError(`lighthouse: no result for ${url}`);
  if (result.lhr.runtimeError) throw new BenchError(`lighthouse: ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`);
  return result.lhr;
}

/** Headless Chromium's user agent hides the build number; the browser itself tells it. */
function chromiumVersion(): string {
  try {
    return /Chrom\w* [\d.]+/.exec(execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))?.[0] ?? 'Chromium';
  } catch {
    return 'Chromium';
  }
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const ms = (n: number) => Math.round(n).toString();
const kb = (n: number) => n.toFixed(1);

function numeric(lhr: Result, id: string): number {
  const value = lhr.audits[id]?.numericValue;
  if (value === undefined) throw new BenchError(`lighthouse: audit ${id} has no value (${lhr.audits[id]?.errorMessage ?? 'missing'}) on ${lhr.finalDisplayedUrl}`);
  return value;
}

function figures(lhr: Result, inline: number, runScores: number[]): Figures {
  const requests = (lhr.audits['network-requests']?.details as { items?: Array<{ resourceType?: string; transferSize?: number }> } | undefined)?.items ?? [];
  const transferredKb = (type: string) => requests.filter((r) => r.resourceType === type).reduce((sum, r) => sum + (r.transferSize ?? 0), 0) / 1024;
  const f: Figures = {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    lcpMs: numeric(lhr, 'largest-contentful-paint'),
    tbtMs: numeric(lhr, 'total-blocking-time'),
    fcpMs: numeric(lhr, 'first-contentful-paint'),
    speedIndexMs: numeric(lhr, 'speed-index'),
    cls: numeric(lhr, 'cumulative-layout-shift'),
    scriptKb: transferredKb('Script'),
    styleKb: transferredKb('Stylesheet'),
    inlineKb: inline,
    failing: [],
    runScores,
  };
  // A missed LCP, TBT or weight is a performance miss too: its audits say where the time or the bytes go.
  const slow = f.lcpMs > TARGET.lcpMs || f.tbtMs > TARGET.tbtMs || f.scriptKb + f.styleKb > TARGET.jsCssKb;
  const missed = { performance: f.performance < TARGET.performance || slow, accessibility: f.accessibility < TARGET.accessibility, 'best-practices': f.bestPractices < TARGET.bestPractices };
  for (const category of CATEGORIES) {
    if (!missed[category]) continue;
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= AUDIT_PASS || ['informative', 'manual', 'notApplicable'].includes(a.scoreDisplayMode)) continue;
      f.failing.push(`${category} ${a.id}: ${a.title}, ${a.score.toFixed(2)}`);
    }
  }
  return f;
}

/** Script and style written into the HTML (no src/href): Lighthouse counts them within the document's bytes. */
async function inlineKb(url: string): Promise<number> {
  const html = await (await fetch(url)).text();
  const blocks = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script\s*>/gi), ...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)];
  return blocks.reduce((sum, m) => sum + Buffer.byteLength(m[1]), 0) / 1024;
}

function targetChecks(label: string, db: string, f: Figures): TargetCheck[] {
  const jsCss = f.scriptKb + f.styleKb;
  return [
    { target: `${label}: performance ≥ ${TARGET.performance}`, db, actual: String(f.performance), pass: f.performance >= TARGET.performance },
    { target: `${label}: accessibility = ${TARGET.accessibility}`, db, actual: String(f.accessibility), pass: f.accessibility >= TARGET.accessibility },
    { target: `${label}: best practices ≥ ${TARGET.bestPractices}`, db, actual: String(f.bestPractices), pass: f.bestPractices >= TARGET.bestPractices },
    { target: `${label}: JS+CSS ≤ ${TARGET.jsCssKb} KB compressed`, db, actual: `${kb(jsCss)} KB`, pass: jsCss <= TARGET.jsCssKb },
    { target: `${label}: LCP ≤ ${TARGET.lcpMs} ms (mobile, simulated)`, db, actual: `${ms(f.lcpMs)} ms`, pass: f.lcpMs <= TARGET.lcpMs },
    { target: `${label}: TBT ≤ ${TARGET.tbtMs} ms (mobile, simulated)`, db, actual: `${ms(f.tbtMs)} ms`, pass: f.tbtMs <= TARGET.tbtMs },
  ];
}
