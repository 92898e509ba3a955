import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { AxeResults, ImpactValue, RunOptions } from 'axe-core';
import fs from 'node:fs';
import { createRequire } from 'node:module';

export interface AxeScope {
  /** Only this part of the page (a CSS selector), e.g. 'main' where the shell is checked elsewhere. */
  include?: string;
  /** Rule tags; default WCAG 2 A and AA. `null`: every rule axe has (best practices included). */
  tags?: string[] | null;
}

type Violation = Pick<AxeResults['violations'][number], 'id' | 'impact' | 'help'> & { nodes: { target: string[]; html: string }[] };
const SERIOUS: (ImpactValue | null | undefined)[] = ['serious', 'critical'];
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical axe violations on the page as it is now, one line each naming the rule, what it
 * asks and where (selector and the start of the element's HTML), so a failure says where to look.
 *
 * How axe is run, by what the page holds (issue 32: each way checks the same rules on the same content):
 * - no frame (every console and patient page): axe-core is put into the page once per document and
 *   `axe.run` called there, returning only the violations;
 * - frames of the page's own origin: AxeBuilder in legacy mode, which puts axe into each frame and runs
 *   `axe.run` across them;
 * - a frame of another origin (the widget's host page): AxeBuilder's default, which runs axe in each frame
 *   and merges the results in a blank page it opens for that (`finishRun`).
 * That blank page costs about a second of Chromium per check on a 2-core CI machine, and AxeBuilder's
 * re-injection and full results (every pass with its nodes) most of another, several times the checking.
 */
export async function seriousAxeProblems(page: Page, scope: AxeScope = {}): Promise<string[]> {
  const tags = scope.tags === undefined ? ['wcag2a', 'wcag2aa'] : scope.tags;
  const violations = page.frames().length === 1 ? await runInPage(page, tags, scope.include) : await runWithBuilder(page, tags, scope.include);
  return violations
    .filter((v) => SERIOUS.includes(v.impact))
    .map((v) => `${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 140)}`).join(' | ')}`);
}

async function runInPage(page: Page, tags: string[] | null, include?: string): Promise<Violation[]> {
  await page.evaluate(`window.axe || (() => { ${axeSource}\n })()`);
  const options: RunOptions = { resultTypes: ['violations'], ...(tags ? { runOnly: { type: 'tag', values: tags } } : {}) };
  return page.evaluate(
    async ({ include, options }) => {
      const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
      const { violations } = await axe.run(include ? { include: [include] } : document, options);
      return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html })) }));
    },
    { include, options },
  );
}

async function runWithBuilder(page: Page, tags: string[] | null, include?: string): Promise<Violation[]> {
  let builder = new AxeBuilder({ page });
  if (tags) builder = builder.withTags(tags);
  if (include) builder = builder.include(include);
  const origin = new URL(page.url()).origin;
  const foreignFrame = page.frames().some((frame) => /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== origin);
  if (!foreignFrame) builder = builder.setLegacyMode(true);
  const { violations } = await builder.analyze();
  return violations.map((v) => ({ ...v, nodes: v.nodes.map((n) => ({ target: n.target.map(String), html: n.html })) }));
}
