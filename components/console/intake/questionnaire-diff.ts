import type { QItem, QRule, QuestionnaireDoc } from './questionnaire-types';

/**
 * What changed between two versions of a questionnaire, for the provider approving the newer one: items
 * and rules added, removed and changed (matched by linkId and rule id, with the fields that differ), and
 * the document's own fields. Pure and order-stable: results follow the newer version's order, removals
 * the older one's.
 */

export interface Changed<T> {
  id: string;
  before: T;
  after: T;
  /** Field names that differ ("text", "options", "enableWhen", "position", …). */
  fields: string[];
}

export interface Section<T> {
  added: T[];
  removed: T[];
  changed: Changed<T>[];
}

export interface QuestionnaireDiff {
  /** title, description, protocolId when they differ. */
  document: { field: 'title' | 'description' | 'protocolId'; before: string | null; after: string | null }[];
  items: Section<QItem>;
  rules: Section<QRule>;
  /** True when nothing at all differs. */
  same: boolean;
}

/** JSON with object keys sorted, so two equal values always compare equal whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function diffSection<T extends object>(before: readonly T[], after: readonly T[], idOf: (x: T) => string): Section<T> {
  const old = new Map(before.map((x, i) => [idOf(x), { x, i }]));
  const now = new Map(after.map((x, i) => [idOf(x), { x, i }]));
  const kept = after.filter((x) => old.has(idOf(x))).map(idOf);
  const keptBefore = before.filter((x) => now.has(idOf(x))).map(idOf);
  const changed: Changed<T>[] = [];
  for (const x of after) {
    const id = idOf(x);
    const prev = old.get(id);
    if (!prev) continue;
    const a = prev.x as Record<string, unknown>;
    const b = x as Record<string, unknown>;
    const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => stableJson(a[k]) !== stableJson(b[k])).sort();
    // Moved relative to the items both versions share (an insertion elsewhere is not a move).
    if (kept.indexOf(id) !== keptBefore.indexOf(id)) fields.push('position');
    if (fields.length > 0) changed.push({ id, before: prev.x, after: x, fields });
  }
  return {
    added: after.filter((x) => !old.has(idOf(x))),
    removed: before.filter((x) => !now.has(idOf(x))),
    changed,
  };
}

export function diffQuestionnaires(before: QuestionnaireDoc, after: QuestionnaireDoc): QuestionnaireDiff {
  const document: QuestionnaireDiff['document'] = [];
  for (const field of ['title', 'description', 'protocolId'] as const) {
    const a = before[field] ?? null;
    const b = after[field] ?? null;
    if (a !== b) document.push({ field, before: a, after: b });
  }
  const items = diffSection(before.items, after.items, (i) => i.linkId);
  const rules = diffSection(before.rules, after.rules, (r) => r.id);
  const empty = (s: Section<unknown>) => s.added.length + s.removed.length + s.changed.length === 0;
  return { document, items, rules, same: document.length === 0 && empty(items) && empty(rules) };
}
