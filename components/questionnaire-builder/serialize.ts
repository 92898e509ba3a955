import type { Condition } from '@/server/domain/intake/shared/shapes';
import { CHOICE_TYPES, NUMERIC_TYPES, type Draft, type DraftComparison, type DraftCondition, type DraftItem, type Operand } from './draft';

/**
 * The working copy written as the questionnaire document the API validates and publishes, together with
 * where each part of it went: every document path (`items.3.enableWhen.all.1.q`) maps to the editor element
 * that wrote it, so a problem the server reports by path lands beside that element, whatever was moved since.
 */

/** Where a problem is shown: an editor element (item, option, comparison, rule, or `doc`) and one of its fields. */
export interface Place {
  uid: string;
  field: string;
}
export const placeKey = (p: Place) => `${p.uid}:${p.field}`;

/** The document as built (the API checks it; this side only writes what was typed). */
export type BuiltDocument = Record<string, unknown> & { key: string; title: string; items: Record<string, unknown>[]; rules: Record<string, unknown>[] };

export interface Built {
  doc: BuiltDocument;
  places: Map<string, Place>;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;
/** A number when the text is one; the text itself otherwise, for the validator to name. */
const numeric = (s: string): number | string => (NUMBER.test(s.trim()) ? Number(s.trim()) : s);

/** The linkId of an item by editor id ('' when it has none). */
type Names = Map<string, DraftItem>;

export function operandQ(o: Operand, items: Names): string {
  const id = (u: string) => items.get(u)?.linkId ?? '';
  switch (o.kind) {
    case 'item':
      return id(o.uid);
    case 'age':
      return `age(${id(o.uid)})`;
    case 'bmi':
      return `bmi(${id(o.height)}, ${id(o.weight)})`;
    case 'raw':
      return o.q;
  }
}

/** The kind of value a comparison on this operand takes: the item's type, or a number for age and BMI. */
export function operandKind(o: Operand, items: Names): DraftItem['type'] | 'number' {
  if (o.kind === 'item') return items.get(o.uid)?.type ?? 'string';
  return o.kind === 'raw' ? 'string' : 'number';
}

function scalar(text: string, kind: ReturnType<typeof operandKind>): string | number | boolean {
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (kind === 'number' || NUMERIC_TYPES.includes(kind as DraftItem['type'])) return numeric(text);
  return text;
}

function comparison(c: DraftComparison, items: Names): Condition {
  const computed = operandQ(c.operand, items);
  const strip = (s: string) => s.replace(/\s+/g, '');
  const q = c.loadedQ !== undefined && strip(c.loadedQ) === strip(computed) ? c.loadedQ : computed;
  const kind = operandKind(c.operand, items);
  const out: { q: string; op: DraftComparison['op']; value?: string | number | boolean | (string | number | boolean)[] } = { q, op: c.op };
  if (c.op === 'exists') {
    if (c.text === 'unanswered') out.value = false;
    else if (c.existsExplicit) out.value = true;
  } else if (c.op === 'in' || c.op === 'nin') {
    out.value = c.list.map((v) => scalar(v, kind));
  } else if (c.text.trim() !== '' || kind === 'string' || kind === 'text') {
    out.value = scalar(c.text, kind);
  }
  return out;
}

function condition(c: DraftCondition, path: string, items: Names, places: Map<string, Place>): Condition {
  places.set(path, { uid: c.uid, field: '' });
  const at = c.negate ? `${path}.not` : path;
  if (c.negate) places.set(at, { uid: c.uid, field: '' });
  let inner: Condition;
  if (c.kind === 'cmp') {
    for (const f of ['q', 'op', 'value']) places.set(`${at}.${f}`, { uid: c.uid, field: f });
    inner = comparison(c, items);
  } else if (c.implicit && c.children.length === 1 && !c.negate) {
    return condition(c.children[0]!, path, items, places);
  } else {
    places.set(`${at}.${c.join}`, { uid: c.uid, field: '' });
    const children = c.children.map((x, i) => condition(x, `${at}.${c.join}.${i}`, items, places));
    inner = c.join === 'all' ? { all: children } : { any: children };
  }
  return c.negate ? { not: inner } : inner;
}

const ITEM_PLACES = ['linkId', 'text', 'help', 'type', 'required', 'options', 'min', 'max', 'unit', 'fact', 'enableWhen'];

export function build(d: Draft): Built {
  const places = new Map<string, Place>();
  const doc = (field: string) => places.set(field, { uid: 'doc', field });
  ['key', 'title', 'description', 'protocolId', 'items', 'rules'].forEach(doc);
  const names: Names = new Map(d.items.map((i) => [i.uid, i]));

  const items = d.items.map((item, i) => {
    const at = `items.${i}`;
    places.set(at, { uid: item.uid, field: '' });
    for (const f of ITEM_PLACES) places.set(`${at}.${f}`, { uid: item.uid, field: f });
    const out: Record<string, unknown> = { ...item.extra, linkId: item.linkId, text: item.text };
    if (item.help.trim()) out.help = item.help;
    out.type = item.type;
    out.required = item.required;
    if (CHOICE_TYPES.includes(item.type)) {
      out.options = item.options.map((o, k) => {
        places.set(`${at}.options.${k}`, { uid: o.uid, field: '' });
        places.set(`${at}.options.${k}.value`, { uid: o.uid, field: 'value' });
        places.set(`${at}.options.${k}.label`, { uid: o.uid, field: 'label' });
        places.set(`${at}.options.${k}.exclusive`, { uid: o.uid, field: '' });
        // Written when set, where it means something (decision 46), or as loaded: other documents keep their hash.
        const exclusive = o.exclusive ? (item.type === 'multi_choice' ? { exclusive: true } : {}) : o.exclusiveFalse ? { exclusive: false } : {};
        return { value: o.value, label: o.label, ...exclusive };
      });
    }
    if (NUMERIC_TYPES.includes(item.type)) {
      if (item.min.trim()) out.min = numeric(item.min);
      if (item.max.trim()) out.max = numeric(item.max);
      if (item.unit) out.unit = item.unit;
    }
    if (item.fact) out.fact = item.fact;
    if (item.enableWhen) out.enableWhen = condition(item.enableWhen, `${at}.enableWhen`, names, places);
    return out;
  });

  const rules = d.rules.map((rule, r) => {
    const at = `rules.${r}`;
    places.set(at, { uid: rule.uid, field: '' });
    for (const f of ['id', 'effect', 'patientMessage', 'when']) places.set(`${at}.${f}`, { uid: rule.uid, field: f });
    return { ...rule.extra, id: rule.id, when: condition(rule.when, `${at}.when`, names, places), effect: rule.effect, patientMessage: rule.patientMessage };
  });

  const out: BuiltDocument = { ...d.extra, key: d.key, title: d.title, items, rules };
  if (d.description.trim()) out.description = d.description;
  if (d.protocolId) out.protocolId = d.protocolId;
  return { doc: out, places };
}

/** The editor element a problem at `param` belongs to: the deepest place that is a prefix of the path. */
export function placeOf(param: string | undefined, places: Map<string, Place>): Place {
  const parts = (param ?? '').split('.');
  for (let n = parts.length; n > 0; n--) {
    const found = places.get(parts.slice(0, n).join('.'));
    if (found) return found;
  }
  return { uid: 'doc', field: '' };
}
