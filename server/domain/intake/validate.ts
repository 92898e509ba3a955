import { SEXES } from '@/server/domain/patients/validation';
import { US_STATES } from '@/server/lib/us-states';
import { isCalendarDate } from './answers';
import { referencedIndexes, walk } from './condition-walk';
import { resolveOperand } from './shared/engine';
import { reachabilityProblems } from './reachability';
import { ZQuestionnaireDocument, type Condition, type QuestionnaireDocument, type QuestionnaireItem } from './questionnaire-schema';

/**
 * The one validator every questionnaire passes, hand-written, AI-drafted or seeded (DESIGN decision 18): the zod
 * schema, then the semantic checks below. Problems carry a dotted path from the document root
 * (`items.3.enableWhen.q`, `rules.0.when`); callers prefix their body field.
 */

export interface DocumentProblem {
  /** Dotted path inside the document, e.g. `items.3.enableWhen.q` (callers prefix their body field). */
  param: string;
  message: string;
}

export type DocumentCheck = { ok: true; document: QuestionnaireDocument } | { ok: false; problems: DocumentProblem[] };

const NUMERIC = new Set(['integer', 'decimal']);
const CHOICE = new Set(['choice', 'multi_choice']);
const ORDERING = new Set(['gt', 'gte', 'lt', 'lte']);

export function validateQuestionnaire(input: unknown): DocumentCheck {
  const parsed = ZQuestionnaireDocument.safeParse(input);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => ({ param: i.path.join('.'), message: i.message })) };
  const problems = semanticProblems(parsed.data);
  return problems.length ? { ok: false, problems } : { ok: true, document: parsed.data };
}

/** The checks zod cannot express. Exported for tests; expects a schema-valid document. */
export function semanticProblems(doc: QuestionnaireDocument): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const add = (param: string, message: string) => problems.push({ param, message });

  const index = new Map<string, number>();
  doc.items.forEach((item, i) => {
    const first = index.get(item.linkId);
    if (first !== undefined) add(`items.${i}.linkId`, `linkId "${item.linkId}" is already used by items.${first}; linkIds must be unique.`);
    else index.set(item.linkId, i);
    checkItemShape(item, `items.${i}`, add);
  });
  checkFacts(doc, add);

  const ruleIds = new Map<string, number>();
  doc.rules.forEach((rule, r) => {
    const first = ruleIds.get(rule.id);
    if (first !== undefined) add(`rules.${r}.id`, `rule id "${rule.id}" is already used by rules.${first}; rule ids must be unique.`);
    else ruleIds.set(rule.id, r);
  });

  // References and value fit. enableWhen may look only at earlier items, so the engine can go in one pass.
  doc.items.forEach((item, i) => {
    if (item.enableWhen) checkCondition(doc, index, item.enableWhen, `items.${i}.enableWhen`, i, add);
  });
  doc.rules.forEach((rule, r) => checkCondition(doc, index, rule.when, `rules.${r}.when`, Infinity, add));

  // Reachability, only once the references are sound (otherwise the analysis would report echoes).
  if (problems.length === 0) problems.push(...reachabilityProblems(doc));
  return problems;
}

function checkItemShape(item: QuestionnaireItem, at: string, add: (p: string, m: string) => void) {
  const id = `Item "${item.linkId}"`;
  if (CHOICE.has(item.type)) {
    if (!item.options) add(`${at}.options`, `${id} is ${item.type} and needs options.`);
    else {
      const seen = new Map<string, number>();
      item.options.forEach((o, k) => {
        const first = seen.get(o.value);
        if (first !== undefined) add(`${at}.options.${k}.value`, `${id} lists option value "${o.value}" twice (also options.${first}).`);
        else seen.set(o.value, k);
        // "None of these" (DESIGN decision 46) means something only where several options can be chosen.
        if (o.exclusive === true && item.type !== 'multi_choice') add(`${at}.options.${k}.exclusive`, `${id} is ${item.type}; only an option of a multi_choice item can be exclusive (a choice takes one answer already).`);
      });
    }
  } else if (item.options) add(`${at}.options`, `${id} is ${item.type}; only choice and multi_choice items have options.`);
  if (!NUMERIC.has(item.type)) {
    if (item.min !== undefined) add(`${at}.min`, `${id} is ${item.type}; min applies to integer and decimal items only.`);
    if (item.max !== undefined) add(`${at}.max`, `${id} is ${item.type}; max applies to integer and decimal items only.`);
    if (item.unit !== undefined) add(`${at}.unit`, `${id} is ${item.type}; unit applies to integer and decimal items only.`);
  } else if (item.min !== undefined && item.max !== undefined && item.min > item.max) {
    add(`${at}.max`, `${id} has max ${item.max} below its min ${item.min}.`);
  }
}

const STATE_CODES = new Set<string>(US_STATES);
const SEX_VALUES = new Set<string>(SEXES);

/**
 * Identity facts (DESIGN decision 31): each declared at most once, and in a shape that can only hold a fact: a
 * date of birth is a date item, a sex at birth a choice among the patient record's values, a state a choice
 * over exactly the one US states list (a free-text state once let `ZZ` and `Californ` through).
 */
function checkFacts(doc: QuestionnaireDocument, add: (p: string, m: string) => void) {
  const declared = new Map<string, number>();
  doc.items.forEach((item, i) => {
    if (!item.fact) return;
    const at = `items.${i}.fact`;
    const id = `Item "${item.linkId}"`;
    const first = declared.get(item.fact);
    if (first !== undefined) add(at, `${id} declares fact: ${item.fact}, already declared by items.${first}; a fact is asked once.`);
    else declared.set(item.fact, i);
    if (item.fact === 'dateOfBirth' && item.type !== 'date') add(at, `${id} declares fact: dateOfBirth, so it must be a date item (it is ${item.type}).`);
    if (item.fact === 'sexAtBirth' && (item.type !== 'choice' || !item.options?.every((o) => SEX_VALUES.has(o.value)))) {
      add(at, `${id} declares fact: sexAtBirth, so it must be a choice whose option values are among ${SEXES.join(', ')}.`);
    }
    if (item.fact === 'state') {
      const values = new Set(item.options?.map((o) => o.value) ?? []);
      const exact = values.size === STATE_CODES.size && [...values].every((v) => STATE_CODES.has(v));
      if (item.type !== 'choice' || !exact) {
        const why = item.type === 'choice' ? 'its options differ from that list' : `a ${item.type} item is not accepted`;
        add(at, `${id} declares fact: state, so it must be a choice over the US states list (the 50 states, DC and PR, two-letter codes as values); ${why}.`);
      }
    }
  });
}

/** The linkIds `q` mentions (one item, or the one or two arguments of a derived value). */
function mentioned(q: string): string[] {
  const m = /^\s*(?:age|bmi)\(([^)]*)\)\s*$/.exec(q);
  return m ? m[1]!.split(',').map((s) => s.trim()) : [q];
}

/** The type a comparison value must have for an operand: an item's type, or `number` for derived values. */
type ValueKind = QuestionnaireItem['type'] | 'number';

function checkCondition(
  doc: QuestionnaireDocument,
  index: Map<string, number>,
  cond: Condition,
  root: string,
  before: number,
  add: (p: string, m: string) => void,
) {
  walk(cond, root, (cmp, at) => {
    const operand = resolveOperand(cmp.q, index);
    let kind: ValueKind;
    let item: QuestionnaireItem | undefined;
    if (operand.kind === 'unknown') {
      const names = mentioned(cmp.q);
      const unknown = names.find((n) => !index.has(n));
      add(`${at}.q`, unknown !== undefined && /^[A-Za-z]/.test(cmp.q) && unknown.length <= 64
        ? `The condition refers to "${unknown}", which is not an item of this questionnaire (or not age(<date item>) / bmi(<height item>, <weight item>)).`
        : 'The condition must name an item linkId, age(<date item>) or bmi(<height item>, <weight item>).');
      return;
    }
    const refs = referencedIndexes(operand);
    const missing = refs.find((r) => r < 0);
    if (missing !== undefined) {
      const unknown = mentioned(cmp.q).find((n) => !index.has(n));
      add(`${at}.q`, `The condition refers to "${unknown}", which is not an item of this questionnaire.`);
      return;
    }
    const late = refs.find((r) => r >= before);
    if (late !== undefined) {
      add(`${at}.q`, `enableWhen may only refer to earlier items; "${doc.items[late]!.linkId}" is items.${late}, at or after this item.`);
      return;
    }
    if (operand.kind === 'age') {
      const dob = doc.items[operand.index]!;
      if (dob.type !== 'date') return add(`${at}.q`, `age() needs a date item; "${dob.linkId}" is ${dob.type}.`);
      kind = 'number';
    } else if (operand.kind === 'bmi') {
      const h = doc.items[operand.height]!;
      const w = doc.items[operand.weight]!;
      for (const [it, units, role] of [
        [h, ['cm', 'in'], 'height'],
        [w, ['kg', 'lb'], 'weight'],
      ] as const) {
        if (!NUMERIC.has(it.type)) return add(`${at}.q`, `bmi() needs an integer or decimal ${role} item; "${it.linkId}" is ${it.type}.`);
        if (it.unit !== undefined && !(units as readonly string[]).includes(it.unit))
          return add(`${at}.q`, `bmi() needs the ${role} in ${units.join(' or ')}; "${it.linkId}" is in ${it.unit}.`);
      }
      kind = 'number';
    } else {
      item = doc.items[operand.index]!;
      kind = item.type;
    }
    checkValue(cmp, kind, item, at, add);
  });
}

function checkValue(
  cmp: { q: string; op: string; value?: unknown },
  kind: ValueKind,
  item: QuestionnaireItem | undefined,
  at: string,
  add: (p: string, m: string) => void,
) {
  const v = cmp.value;
  const subject = item ? `item "${item.linkId}" (${item.type})` : cmp.q;
  if (cmp.op === 'exists') {
    if (v !== undefined && typeof v !== 'boolean') add(`${at}.value`, `exists takes true, false or no value.`);
    return;
  }
  if (cmp.op === 'in' || cmp.op === 'nin') {
    if (!Array.isArray(v) || v.length === 0) return add(`${at}.value`, `${cmp.op} needs a non-empty list of values for ${subject}.`);
    v.forEach((x, k) => {
      const why = misfit(kind, item, x);
      if (why) add(`${at}.value.${k}`, `${subject}: ${why}`);
    });
    return;
  }
  if (Array.isArray(v) || v === undefined) return add(`${at}.value`, `${cmp.op} needs a single value for ${subject}.`);
  if (ORDERING.has(cmp.op)) {
    if (kind === 'number' || NUMERIC.has(kind)) {
      if (typeof v !== 'number') add(`${at}.value`, `${cmp.op} on ${subject} needs a number.`);
    } else if (kind === 'date') {
      if (!isCalendarDate(v)) add(`${at}.value`, `${cmp.op} on ${subject} needs a date written YYYY-MM-DD.`);
    } else add(`${at}.op`, `${cmp.op} compares numbers and dates only; ${subject} is neither.`);
    return;
  }
  const why = misfit(kind, item, v);
  if (why) add(`${at}.value`, `${subject}: ${why}`);
}

/** Why a comparison value cannot equal any answer of the operand, or null. */
function misfit(kind: ValueKind, item: QuestionnaireItem | undefined, v: unknown): string | null {
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean' ? null : 'compare with true or false.';
    case 'choice':
    case 'multi_choice':
      return typeof v === 'string' && item?.options?.some((o) => o.value === v) ? null : 'compare with one of its option values.';
    case 'integer':
    case 'decimal':
    case 'number':
      return typeof v === 'number' ? null : 'compare with a number.';
    case 'date':
      return isCalendarDate(v) ? null : 'compare with a date written YYYY-MM-DD.';
    default:
      return typeof v === 'string' ? null : 'compare with text.';
  }
}
