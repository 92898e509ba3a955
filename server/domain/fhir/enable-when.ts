import type { QuestionnaireItemEnableWhen } from '@medplum/fhirtypes';
import type { Comparison, Condition, QuestionnaireItem } from '@/server/domain/intake/questionnaire-schema';
import { LINK_ID } from '@/server/domain/intake/shared/shapes';

/**
 * A questionnaire's enabling conditions in FHIR's words, both ways. FHIR's `enableWhen` is a flat list of
 * comparisons with one item's answer, joined by `enableBehavior` (all | any). Ours is a tree (all, any, not)
 * whose operands may be derived (`age(dob)`, `bmi(h, w)`). A condition is exported as `enableWhen` when the list
 * says exactly the same (the engine then decides the same on import); otherwise as the project's condition
 * extension (systems.ts), which carries it whole.
 *
 * Same meaning, operator by operator, under the engine's rules (server/domain/intake/shared/conditions.ts):
 * `=`/`!=` compare an answer (any one of a multi_choice's for `=`, none of them for `!=`); an unanswered or
 * disabled item makes every comparison false but `exists false`. `in` is any of `=`; `nin` is all of `!=`.
 */
export interface EnableWhen {
  enableWhen: QuestionnaireItemEnableWhen[];
  enableBehavior?: 'all' | 'any';
}

const TO_FHIR_OP = { eq: '=', neq: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const FROM_FHIR_OP: Record<string, Comparison['op']> = { '=': 'eq', '!=': 'neq', '>': 'gt', '>=': 'gte', '<': 'lt', '<=': 'lte', exists: 'exists' };
type ItemType = QuestionnaireItem['type'];

/** The typed answer of an `enableWhen` for a value compared with an item of `type`; undefined when FHIR has none that fits. */
function answerOf(type: ItemType, op: keyof typeof TO_FHIR_OP, value: unknown): Partial<QuestionnaireItemEnableWhen> | undefined {
  const ordered = op !== 'eq' && op !== 'neq';
  switch (type) {
    case 'boolean':
      return typeof value === 'boolean' && !ordered ? { answerBoolean: value } : undefined;
    case 'choice':
    case 'multi_choice':
      return typeof value === 'string' && !ordered ? { answerCoding: { code: value } } : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? { answerInteger: value } : undefined;
    case 'decimal':
      return typeof value === 'number' ? { answerDecimal: value } : undefined;
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? { answerDate: value } : undefined;
    default:
      return typeof value === 'string' && !ordered ? { answerString: value } : undefined;
  }
}

/** One comparison as `enableWhen` entries and the behavior joining them (undefined: a single entry). */
function leaf(c: Comparison, types: ReadonlyMap<string, ItemType>): EnableWhen | null {
  const type = LINK_ID.test(c.q) ? types.get(c.q) : undefined;
  if (!type) return null;
  if (c.op === 'exists') return c.value === undefined || typeof c.value === 'boolean' ? { enableWhen: [{ question: c.q, operator: 'exists', answerBoolean: c.value !== false }] } : null;
  if (c.op === 'in' || c.op === 'nin') {
    if (!Array.isArray(c.value) || c.value.length === 0) return null;
    const op = c.op === 'in' ? 'eq' : 'neq';
    const answers = c.value.map((v) => answerOf(type, op, v));
    if (answers.some((a) => !a)) return null;
    return { enableWhen: answers.map((a) => ({ question: c.q, operator: TO_FHIR_OP[op], ...a })), enableBehavior: answers.length > 1 ? (c.op === 'in' ? 'any' : 'all') : undefined };
  }
  const answer = answerOf(type, c.op, c.value);
  return answer ? { enableWhen: [{ question: c.q, operator: TO_FHIR_OP[c.op], ...answer }] } : null;
}

/** The condition as `enableWhen` when it says exactly the same; null when only the extension can carry it. */
export function toEnableWhen(condition: Condition, types: ReadonlyMap<string, ItemType>): EnableWhen | null {
  if ('not' in condition) return null;
  if (!('all' in condition) && !('any' in condition)) return leaf(condition, types);
  const behavior = 'all' in condition ? 'all' : 'any';
  const parts = 'all' in condition ? condition.all : condition.any;
  const entries: QuestionnaireItemEnableWhen[] = [];
  for (const part of parts) {
    if ('all' in part || 'any' in part || 'not' in part) return null;
    const mapped = leaf(part, types);
    if (!mapped || (mapped.enableBehavior && mapped.enableBehavior !== behavior)) return null;
    entries.push(...mapped.enableWhen);
  }
  return { enableWhen: entries, enableBehavior: entries.length > 1 ? behavior : undefined };
}

/** What an `enableWhen` entry cannot be made into (named in the import's 422). */
type EnableWhenProblem = string;

/** One `enableWhen` entry as a comparison, or why it cannot be one. */
function comparisonOf(entry: QuestionnaireItemEnableWhen): Comparison | EnableWhenProblem {
  const op = FROM_FHIR_OP[entry.operator];
  if (!op) return `enableWhen operator '${String(entry.operator).slice(0, 20)}' is not one of exists, =, !=, >, <, >=, <=`;
  if (typeof entry.question !== 'string' || !LINK_ID.test(entry.question)) return 'enableWhen.question must name an item by its linkId';
  const values: [string, unknown][] = Object.entries(entry).filter(([k]) => k.startsWith('answer'));
  if (values.length !== 1) return 'enableWhen needs exactly one answer[x]';
  const [kind, raw] = values[0]!;
  let value: string | number | boolean;
  if (kind === 'answerBoolean' && typeof raw === 'boolean') value = raw;
  else if ((kind === 'answerInteger' || kind === 'answerDecimal') && typeof raw === 'number' && Number.isFinite(raw)) value = raw;
  else if ((kind === 'answerDate' || kind === 'answerString') && typeof raw === 'string') value = raw;
  else if (kind === 'answerCoding' && typeof (raw as { code?: unknown })?.code === 'string') value = (raw as { code: string }).code;
  else return `enableWhen.${kind} is not supported (boolean, integer, decimal, date, string and Coding answers are)`;
  if (op === 'exists') return typeof value === 'boolean' ? { q: entry.question, op, value } : 'enableWhen with operator exists needs answerBoolean';
  return { q: entry.question, op, value };
}

/** An item's `enableWhen` and `enableBehavior` as one condition, or the problems that stop it. */
export function fromEnableWhen(entries: QuestionnaireItemEnableWhen[], behavior: unknown): { condition: Condition } | { problems: EnableWhenProblem[] } {
  const parts = entries.map(comparisonOf);
  const problems = parts.filter((p): p is string => typeof p === 'string');
  if (entries.length > 1 && behavior !== 'all' && behavior !== 'any') problems.push('enableBehavior (all or any) is required with more than one enableWhen');
  if (problems.length) return { problems };
  const comparisons = parts as Comparison[];
  if (comparisons.length === 1) return { condition: comparisons[0]! };
  return { condition: behavior === 'all' ? { all: comparisons } : { any: comparisons } };
}
