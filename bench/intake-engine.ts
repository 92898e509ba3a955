/**
 * The eligibility engine alone, in process (issue 22: ≥ 50,000 evaluations/s on a 40-item questionnaire).
 * `npx tsx bench/intake-engine.ts [seconds]` prints the figures; the `intake-engine` scenario puts them in
 * bench/RESULTS.md. The baseline is the least any evaluator must do, measured in the same run: read each of
 * the 40 answers of the same answer objects and count the present ones.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { checkAnswers, evaluate } from '@/server/domain/intake/shared/engine';
import { weightManagement } from '@/server/domain/intake/library';
import type { QuestionnaireDocument, QuestionnaireItem, QuestionnaireRule } from '@/server/domain/intake/questionnaire-schema';
import { validateQuestionnaire } from '@/server/domain/intake/validate';

const ASOF = '2026-11-25';
const YN = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
  { value: 'unsure', label: 'Not sure' },
];

/** The weight-management questionnaire (15 items, 11 rules) grown to 40 items and 26 rules with a medical history block. */
export function fortyItemQuestionnaire(): QuestionnaireDocument {
  const extra: QuestionnaireItem[] = [];
  const rules: QuestionnaireRule[] = [];
  for (let k = 0; k < 25; k++) {
    const linkId = `hx${k}`;
    const kind = k % 5;
    if (kind === 0) extra.push({ linkId, text: `History question ${k}`, type: 'boolean', required: true });
    else if (kind === 1) extra.push({ linkId, text: `History question ${k}`, type: 'choice', required: true, options: YN, enableWhen: { q: `hx${k - 1}`, op: 'eq', value: true } });
    else if (kind === 2) extra.push({ linkId, text: `How many ${k}`, type: 'integer', required: false, min: 0, max: 50 });
    else if (kind === 3) extra.push({ linkId, text: `Since when ${k}`, type: 'date', required: false });
    else extra.push({ linkId, text: `Which ${k}`, type: 'multi_choice', required: false, options: YN });
    if (kind === 0) rules.push({ id: `hx${k}_dq`, when: { all: [{ q: linkId, op: 'eq', value: true }, { q: 'age(dob)', op: 'gte', value: 70 }] }, effect: 'disqualify', patientMessage: 'No.' });
    if (kind === 2) rules.push({ id: `hx${k}_flag`, when: { any: [{ q: linkId, op: 'gt', value: 10 }, { q: 'bmi(height, weight)', op: 'gte', value: 45 }] }, effect: 'review_flag', patientMessage: 'Look.' });
    if (kind === 4) rules.push({ id: `hx${k}_in`, when: { q: linkId, op: 'in', value: ['yes', 'unsure'] }, effect: 'review_flag', patientMessage: 'Look.' });
  }
  const doc = { ...weightManagement, key: 'bench-forty', items: [...weightManagement.items, ...extra], rules: [...weightManagement.rules, ...rules] };
  const checked = validateQuestionnaire(doc);
  if (!checked.ok) throw new Error(`bench questionnaire invalid: ${JSON.stringify(checked.problems)}`);
  if (doc.items.length !== 40) throw new Error(`expected 40 items, got ${doc.items.length}`);
  return checked.document;
}

/** 64 answer sets: eligible, flagged, disqualified and incomplete ones, all 40 items considered. */
export function answerSets(doc: QuestionnaireDocument): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let n = 0; n < 64; n++) {
    const a: Record<string, unknown> = {
      dob: `19${String(50 + (n % 45)).padStart(2, '0')}-0${1 + (n % 9)}-1${n % 10}`,
      state: 'CA',
      sex: n % 3 === 0 ? 'male' : 'female',
      height: 60 + (n % 15),
      weight: 150 + n * 3.5,
      comorbidities: n % 4 === 0 ? ['none'] : ['hypertension', 'sleep_apnea'],
      pregnant: n % 17 === 0,
      mtc_men2: false,
      pancreatitis: n % 23 === 0,
      type1_diabetes: false,
      eating_disorder: n % 11 === 0 ? 'past' : 'never',
      gallbladder: false,
      glp1_current: n % 5 === 0,
      glp1_name: 'semaglutide 0.5 mg',
      medications: 'none',
    };
    for (const item of doc.items.slice(15)) {
      if (n % 13 === 0 && item.required) continue; // some incomplete
      if (item.type === 'boolean') a[item.linkId] = n % 2 === 0;
      else if (item.type === 'choice') a[item.linkId] = YN[n % 3]!.value;
      else if (item.type === 'integer') a[item.linkId] = n % 20;
      else if (item.type === 'date') a[item.linkId] = '2020-02-29';
      else a[item.linkId] = n % 2 ? ['no'] : ['yes', 'unsure'];
    }
    out.push(a);
  }
  return out;
}

function rate(seconds: number, body: (i: number) => unknown): { perSec: number; sink: number } {
  let sink = 0;
  let ops = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) if (body(ops + i)) sink++;
    ops += 1000;
  }
  return { perSec: ops / ((performance.now() - start) / 1000), sink };
}

export interface EngineFigures {
  items: number;
  rules: number;
  baselinePerSec: number;
  evaluatePerSec: number;
  checkAnswersPerSec: number;
  coldMs: number;
  verdicts: Record<string, number>;
}

export function measureEngine(seconds: number): EngineFigures {
  const doc = fortyItemQuestionnaire();
  const sets = answerSets(doc);
  const linkIds = doc.items.map((i) => i.linkId);
  const verdicts: Record<string, number> = {};
  for (const a of sets) {
    const v = evaluate(doc, a, { asOf: ASOF }).verdict;
    verdicts[v] = (verdicts[v] ?? 0) + 1;
  }
  const baselineBody = (i: number) => {
    const a = sets[i & 63]!;
    let present = 0;
    for (let k = 0; k < linkIds.length; k++) if (Object.prototype.hasOwnProperty.call(a, linkIds[k]!) && a[linkIds[k]!] != null) present++;
    return present > 20;
  };
  const evalBody = (i: number) => evaluate(doc, sets[i & 63]!, { asOf: ASOF }).verdict === 'eligible';
  const checkBody = (i: number) => checkAnswers(doc, sets[i & 63]!).length === 0;
  // Warm-up (JIT), then each measured in turn.
  rate(Math.min(1, seconds / 3), baselineBody);
  rate(Math.min(1, seconds / 3), evalBody);
  const baseline = rate(seconds, baselineBody);
  const ev = rate(seconds, evalBody);
  const ch = rate(seconds / 2, checkBody);
  // Cold: a document evaluated for the first time (compile included).
  const clones = Array.from({ length: 200 }, () => structuredClone(doc));
  const t0 = performance.now();
  for (const c of clones) evaluate(c, sets[0]!, { asOf: ASOF });
  const coldMs = (performance.now() - t0) / clones.length;
  return { items: doc.items.length, rules: doc.rules.length, baselinePerSec: baseline.perSec, evaluatePerSec: ev.perSec, checkAnswersPerSec: ch.perSec, coldMs, verdicts };
}

export function figuresMarkdown(f: EngineFigures): string {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  return [
    `In process, one thread; a ${f.items}-item, ${f.rules}-rule questionnaire (weight management + a history block), 64 answer sets cycled (verdicts ${JSON.stringify(f.verdicts)}).`,
    '',
    '| case | per second | vs baseline |',
    '|---|---:|---:|',
    `| baseline: read the 40 answers of the same objects | ${n(f.baselinePerSec)} | 100% |`,
    `| evaluate (verdict, missing, hits, flags) | ${n(f.evaluatePerSec)} | ${((f.evaluatePerSec / f.baselinePerSec) * 100).toFixed(1)}% |`,
    `| checkAnswers (type check of all 40) | ${n(f.checkAnswersPerSec)} | ${((f.checkAnswersPerSec / f.baselinePerSec) * 100).toFixed(1)}% |`,
    '',
    `First evaluation of a new document object (compile included): ${f.coldMs.toFixed(3)} ms.`,
  ].join('\n');
}

export const ENGINE_TARGET_PER_SEC = 50_000;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const seconds = Number(process.argv[2] ?? 3);
  const f = measureEngine(seconds);
  process.stdout.write(`${figuresMarkdown(f)}\n\ntarget ≥ ${ENGINE_TARGET_PER_SEC.toLocaleString('en-US')} evaluations/s: ${f.evaluatePerSec >= ENGINE_TARGET_PER_SEC ? 'PASS' : 'MISS'}\n`);
}

/** The answer sets of `doc` that the engine finds eligible today (each signs a certificate); at least 8 or the bench stops. */
export function eligibleAnswerSets(doc: QuestionnaireDocument, scenario: string): Record<string, unknown>[] {
  const asOf = new Date().toISOString().slice(0, 10);
  const sets = answerSets(doc).filter((a) => checkAnswers(doc, a).length === 0 && evaluate(doc, a, { asOf }).verdict === 'eligible');
  if (sets.length < 8) throw new Error(`${scenario} set-up: only ${sets.length} eligible answer sets`);
  return sets;
}
