import type { QuestionnaireItemEnableWhen } from '@medplum/fhirtypes';
import type { Condition, QuestionnaireItem, QuestionnaireRule } from '@/server/domain/intake/questionnaire-schema';
import { IDENTITY_FACTS, UNITS } from '@/server/domain/intake/shared/shapes';
import { fromEnableWhen } from './enable-when';
import { EXTENSIONS, ITEM_CONTROL_SYSTEM, UCUM } from './systems';

/**
 * A FHIR R4 Questionnaire made into the project's questionnaire document (DESIGN decision 42), or every element
 * that cannot be, each named by the linkId of its item. Supported: boolean, choice (answerOption; `repeats` makes
 * it a multi_choice), integer, decimal, date, string, text, display and group items; `required`; `enableWhen` with
 * every operator and `enableBehavior`; the min/max, unit and option-exclusive extensions; and the project's own
 * extensions (rules, identity facts, conditions) that its export writes. The document has no groups or display
 * items, so:
 * - a group's items take its place, each also enabled only when the group is (its condition joined with theirs);
 *   a group's text, like a display item's, becomes help text of the next question (of the question itself for a
 *   display nested in one); text with no question after it ends the description;
 * - a display item's own enableWhen is dropped (its text shows with the question that carries it).
 * The result still goes through the one questionnaire validator before anything is stored.
 */
export interface ImportProblem {
  /** The item's linkId; absent for the questionnaire itself. */
  linkId?: string;
  message: string;
}

type Json = Record<string, unknown>;
const QUESTION_TYPES = { boolean: 'boolean', choice: 'choice', integer: 'integer', decimal: 'decimal', date: 'date', string: 'string', text: 'text' } as const;
const ITEM_ELEMENTS = new Set(['id', 'linkId', 'text', 'type', 'required', 'repeats', 'answerOption', 'enableWhen', 'enableBehavior', 'item', 'extension']);
/** Questionnaire elements that describe the form without changing what it asks: read (title, description) or passed over. */
const DESCRIPTIVE = new Set([
  'resourceType', 'id', 'meta', 'language', 'text', 'url', 'identifier', 'version', 'name', 'title', 'derivedFrom', 'status', 'experimental',
  'subjectType', 'date', 'publisher', 'contact', 'description', 'useContext', 'jurisdiction', 'purpose', 'copyright', 'approvalDate',
  'lastReviewedDate', 'effectivePeriod', 'code', 'item', 'extension',
]);
const UNIT_OF: Record<string, (typeof UNITS)[number]> = Object.fromEntries(Object.entries(UCUM).map(([unit, c]) => [c.code, unit as (typeof UNITS)[number]]));
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v: unknown) => String(v).slice(0, 60);
const both = (a: Condition | undefined, b: Condition | undefined): Condition | undefined => (a && b ? { all: [a, b] } : (a ?? b));

/** A condition or rule carried as JSON by the project's extensions; its shape is the validator's to judge. */
function jsonOf(value: unknown): Condition | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? (parsed as Condition) : undefined;
  } catch {
    return undefined;
  }
}

class Importer {
  readonly problems: ImportProblem[] = [];
  readonly items: QuestionnaireItem[] = [];
  /** Text of display items and groups waiting for the next question. */
  private pendingHelp: string[] = [];

  problem(linkId: string | undefined, message: string) {
    this.problems.push({ linkId, message });
  }

  trailingText(): string[] {
    return this.pendingHelp;
  }

  /** Every item of a list, in order, under the condition of the groups around it. */
  visitAll(items: unknown, inherited: Condition | undefined, where: string) {
    if (items === undefined) return;
    if (!Array.isArray(items)) return this.problem(undefined, `${where}.item must be a list`);
    items.forEach((item, i) => this.visit(item, inherited, `${where}.item[${i}]`));
  }

  private visit(raw: unknown, inherited: Condition | undefined, where: string) {
    if (!isObject(raw)) return this.problem(undefined, `${where} must be an object`);
    const linkId = typeof raw.linkId === 'string' && raw.linkId ? raw.linkId.slice(0, 64) : undefined;
    const name = linkId ?? where;
    if (!linkId) this.problem(undefined, `${where} has no linkId`);
    for (const key of Object.keys(raw)) if (!ITEM_ELEMENTS.has(key)) this.problem(linkId, `${name}: the element '${shown(key)}' is not supported`);
    const type = raw.type;
    if (type === 'display') return this.display(raw, name);
    const condition = both(inherited, this.conditionOf(raw, linkId, name));
    if (type === 'group') return this.group(raw, linkId, name, condition, where);
    if (typeof type !== 'string' || !(type in QUESTION_TYPES)) return this.problem(linkId, `${name}: the item type '${shown(type)}' is not supported (boolean, choice, integer, decimal, date, string, text, display and group are)`);
    this.question(raw, linkId ?? '', name, type as keyof typeof QUESTION_TYPES, { condition, inherited }, where);
  }

  private display(raw: Json, name: string) {
    this.extensions(raw, name, [EXTENSIONS.itemControl]);
    if (raw.item !== undefined) this.problem(typeof raw.linkId === 'string' ? raw.linkId : undefined, `${name}: a display item cannot hold items`);
    if (typeof raw.text === 'string' && raw.text.trim()) this.pendingHelp.push(raw.text.trim());
  }

  private group(raw: Json, linkId: string | undefined, name: string, condition: Condition | undefined, where: string) {
    this.extensions(raw, name, [EXTENSIONS.condition]);
    if (raw.required === true) this.problem(linkId, `${name}: 'required' on a group is not supported (mark its questions required instead)`);
    if (raw.repeats === true) this.problem(linkId, `${name}: a repeating group is not supported`);
    if (raw.answerOption !== undefined) this.problem(linkId, `${name}: a group has no answerOption`);
    if (typeof raw.text === 'string' && raw.text.trim()) this.pendingHelp.push(raw.text.trim());
    this.visitAll(raw.item, condition, where);
  }

  /** `condition`: the groups' and its own; `inherited`: the groups' only, which questions nested in it take. */
  private question(raw: Json, linkId: string, name: string, fhirType: keyof typeof QUESTION_TYPES, when: { condition?: Condition; inherited?: Condition }, where: string) {
    const { condition, inherited } = when;
    const ext = this.extensions(raw, name, [EXTENSIONS.minValue, EXTENSIONS.maxValue, EXTENSIONS.unit, EXTENSIONS.identityFact, EXTENSIONS.condition]);
    const repeats = raw.repeats === true;
    if (repeats && fhirType !== 'choice') this.problem(linkId, `${name}: 'repeats' is supported on choice items only`);
    const item: QuestionnaireItem = {
      linkId,
      text: typeof raw.text === 'string' ? raw.text : '',
      type: fhirType === 'choice' && repeats ? 'multi_choice' : QUESTION_TYPES[fhirType],
      required: raw.required === true,
    };
    if (fhirType === 'choice') item.options = this.options(raw.answerOption, linkId, name);
    else if (raw.answerOption !== undefined) this.problem(linkId, `${name}: answerOption is supported on choice items only`);
    for (const [url, key] of [[EXTENSIONS.minValue, 'min'], [EXTENSIONS.maxValue, 'max']] as const) {
      const e = ext.get(url);
      if (!e) continue;
      const n = e.valueInteger ?? e.valueDecimal;
      if (typeof n === 'number' && Number.isFinite(n)) item[key] = n;
      else this.problem(linkId, `${name}: the ${key}Value extension needs valueInteger or valueDecimal`);
    }
    const unit = ext.get(EXTENSIONS.unit);
    if (unit) {
      const code = isObject(unit.valueCoding) ? unit.valueCoding.code : undefined;
      const ours = typeof code === 'string' ? (UNIT_OF[code] ?? ((UNITS as readonly string[]).includes(code) ? (code as (typeof UNITS)[number]) : undefined)) : undefined;
      if (ours) item.unit = ours;
      else this.problem(linkId, `${name}: the unit must be one of cm, [in_i], kg, [lb_av] (UCUM)`);
    }
    const fact = ext.get(EXTENSIONS.identityFact)?.valueCode;
    if (fact !== undefined) {
      if ((IDENTITY_FACTS as readonly unknown[]).includes(fact)) item.fact = fact as QuestionnaireItem['fact'];
      else this.problem(linkId, `${name}: the identity fact must be one of ${IDENTITY_FACTS.join(', ')}`);
    }
    if (condition) item.enableWhen = condition;
    // Help: text waiting from displays and groups before it, then its own display children.
    const before = this.pendingHelp;
    this.pendingHelp = [];
    const children = Array.isArray(raw.item) ? raw.item : raw.item === undefined ? [] : null;
    if (children === null) this.problem(linkId, `${name}.item must be a list`);
    const nested = (children ?? []).filter((child) => !(isObject(child) && child.type === 'display'));
    for (const child of children ?? []) if (isObject(child) && child.type === 'display') this.display(child, `${name} > ${shown(child.linkId)}`);
    const help = [...before, ...this.pendingHelp].join('\n\n');
    this.pendingHelp = [];
    if (help) item.help = help;
    this.items.push(item);
    // Questions nested under a question are asked after it, under the same groups' conditions.
    this.visitAll(nested.length ? nested : undefined, inherited, where);
  }

  /** The item's own condition: the project's condition extension (exact), or its enableWhen list. */
  private conditionOf(raw: Json, linkId: string | undefined, name: string): Condition | undefined {
    const ext = Array.isArray(raw.extension) ? raw.extension.find((e) => isObject(e) && e.url === EXTENSIONS.condition) : undefined;
    const hasList = raw.enableWhen !== undefined;
    let own: Condition | undefined;
    if (ext) {
      if (hasList) this.problem(linkId, `${name}: give enableWhen or the condition extension, not both`);
      own = jsonOf((ext as Json).valueString);
      if (!own) this.problem(linkId, `${name}: the condition extension needs valueString holding a condition as JSON`);
    } else if (hasList) {
      if (!Array.isArray(raw.enableWhen) || raw.enableWhen.length === 0 || !raw.enableWhen.every(isObject)) {
        this.problem(linkId, `${name}: enableWhen must be a list of comparisons`);
      } else {
        const mapped = fromEnableWhen(raw.enableWhen as unknown as QuestionnaireItemEnableWhen[], raw.enableBehavior);
        if ('problems' in mapped) for (const p of mapped.problems) this.problem(linkId, `${name}: ${p}`);
        else own = mapped.condition;
      }
    } else if (raw.enableBehavior !== undefined) {
      this.problem(linkId, `${name}: enableBehavior without enableWhen`);
    }
    return own;
  }

  private options(raw: unknown, linkId: string, name: string): QuestionnaireItem['options'] {
    if (!Array.isArray(raw) || raw.length === 0) {
      this.problem(linkId, `${name}: a choice item needs answerOption`);
      return undefined;
    }
    return raw.flatMap((option, i) => {
      if (!isObject(option)) return this.problem(linkId, `${name}: answerOption[${i}] must be an object`), [];
      for (const key of Object.keys(option)) if (key !== 'valueCoding' && key !== 'valueString' && key !== 'extension') this.problem(linkId, `${name}: answerOption[${i}].${shown(key)} is not supported (valueCoding and valueString are)`);
      const ext = this.extensions(option, `${name}: answerOption[${i}]`, [EXTENSIONS.optionExclusive], linkId);
      const exclusive = ext.get(EXTENSIONS.optionExclusive)?.valueBoolean === true ? { exclusive: true } : {};
      const coding = option.valueCoding;
      if (isObject(coding) && typeof coding.code === 'string') return [{ value: coding.code, label: typeof coding.display === 'string' ? coding.display : coding.code, ...exclusive }];
      if (typeof option.valueString === 'string') return [{ value: option.valueString, label: option.valueString, ...exclusive }];
      this.problem(linkId, `${name}: answerOption[${i}] needs valueCoding with a code, or valueString`);
      return [];
    });
  }

  /** The item's extensions by URL, only those `allowed`; any other (and any modifierExtension) is a problem. */
  private extensions(raw: Json, name: string, allowed: string[], linkId = typeof raw.linkId === 'string' ? raw.linkId : undefined): Map<string, Json> {
    const found = new Map<string, Json>();
    if (raw.modifierExtension !== undefined) this.problem(linkId, `${name}: modifierExtension is not supported`);
    if (raw.extension === undefined) return found;
    if (!Array.isArray(raw.extension)) return this.problem(linkId, `${name}: extension must be a list`), found;
    for (const e of raw.extension) {
      const url = isObject(e) ? e.url : undefined;
      if (typeof url === 'string' && allowed.includes(url)) found.set(url, e as Json);
      else if (url === EXTENSIONS.itemControl && raw.type === 'display') found.set(url, e as Json);
      else this.problem(linkId, `${name}: the extension '${shown(url)}' is not supported here`);
    }
    const control = found.get(EXTENSIONS.itemControl);
    const codes = isObject(control?.valueCodeableConcept) && Array.isArray(control.valueCodeableConcept.coding) ? control.valueCodeableConcept.coding : [];
    if (control && !codes.some((c) => isObject(c) && c.system === ITEM_CONTROL_SYSTEM && c.code === 'help')) this.problem(linkId, `${name}: only the 'help' item control is supported`);
    return found;
  }
}

function rulesOf(extensions: unknown, importer: Importer): QuestionnaireRule[] {
  if (extensions === undefined) return [];
  if (!Array.isArray(extensions)) return importer.problem(undefined, 'Questionnaire.extension must be a list'), [];
  return extensions.flatMap((e, i) => {
    if (!isObject(e) || e.url !== EXTENSIONS.rule) return importer.problem(undefined, `Questionnaire.extension[${i}]: the extension '${shown(isObject(e) ? e.url : e)}' is not supported`), [];
    const parts = new Map((Array.isArray(e.extension) ? e.extension : []).filter(isObject).map((p) => [p.url, p]));
    const id = parts.get('id')?.valueString;
    const effect = parts.get('effect')?.valueCode;
    const patientMessage = parts.get('patientMessage')?.valueString;
    const when = jsonOf(parts.get('when')?.valueString);
    if (typeof id !== 'string' || (effect !== 'disqualify' && effect !== 'review_flag') || typeof patientMessage !== 'string' || !when) {
      importer.problem(undefined, `Questionnaire.extension[${i}]: a rule needs id, effect (disqualify or review_flag), patientMessage and when (a condition as JSON)`);
      return [];
    }
    return [{ id, when, effect, patientMessage }];
  });
}

/** The questionnaire's key: the last segment of our canonical URL, else its computable name or title, as a slug. */
function keyOf(resource: Json): string {
  const fromUrl = typeof resource.url === 'string' ? /\/fhir\/questionnaires\/[^/]+\/(?:live|sandbox)\/([a-z0-9][a-z0-9_-]{0,63})$/.exec(resource.url)?.[1] : undefined;
  if (fromUrl) return fromUrl;
  const source = typeof resource.name === 'string' && resource.name ? resource.name : typeof resource.title === 'string' ? resource.title : '';
  const slug = source
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
  return slug || 'imported';
}

/** The document a FHIR Questionnaire describes, or every problem found (nothing is stored then). */
export function documentFromFhir(resource: Json): { document: Json } | { problems: ImportProblem[] } {
  const importer = new Importer();
  for (const key of Object.keys(resource)) if (!DESCRIPTIVE.has(key)) importer.problem(undefined, `Questionnaire: the element '${shown(key)}' is not supported`);
  const rules = rulesOf(resource.extension, importer);
  importer.visitAll(resource.item, undefined, 'Questionnaire');
  if (resource.item === undefined) importer.problem(undefined, 'Questionnaire: there are no items');
  if (importer.problems.length) return { problems: importer.problems };
  const description = [typeof resource.description === 'string' ? resource.description : '', ...importer.trailingText()].filter(Boolean).join('\n\n');
  const title = typeof resource.title === 'string' && resource.title ? resource.title : typeof resource.name === 'string' && resource.name ? resource.name : keyOf(resource);
  return { document: { key: keyOf(resource), title, ...(description ? { description } : {}), items: importer.items, rules } };
}
