import type { Extension, Questionnaire, QuestionnaireItem as FhirItem } from '@medplum/fhirtypes';
import type { QuestionnaireRow } from '@/server/domain/intake/questionnaire-store';
import type { QuestionnaireDocument, QuestionnaireItem } from '@/server/domain/intake/questionnaire-schema';
import { toEnableWhen } from './enable-when';
import { toFhirId } from './shared/ids';
import { EXTENSIONS, ITEM_CONTROL_SYSTEM, UCUM } from './systems';

/** FHIR's item type for ours: a multi_choice is a repeating choice. */
const FHIR_TYPE = {
  boolean: 'boolean',
  choice: 'choice',
  multi_choice: 'choice',
  integer: 'integer',
  decimal: 'decimal',
  date: 'date',
  string: 'string',
  text: 'text',
} as const satisfies Record<QuestionnaireItem['type'], FhirItem['type']>;

// draft and pending: not for use yet; superseded: never will be.
const STATUS = { draft: 'draft', pending: 'draft', approved: 'active', retired: 'retired', superseded: 'retired' } as const;

/**
 * A questionnaire's canonical URL: the same for every version of one key in one clinic and mode (the version is
 * `version`), and the same whatever host a request came through (PUBLIC_URL). It names; it need not resolve.
 */
export const questionnaireCanonical = (publicUrl: string, row: Pick<QuestionnaireRow, 'tenantId' | 'livemode' | 'key'>) =>
  `${publicUrl}/fhir/questionnaires/${row.tenantId}/${row.livemode ? 'live' : 'sandbox'}/${row.key}`;

/** A computable name (FHIR's inv-0: a capital letter, then letters, digits or _): `weight-loss` → `WeightLoss`. */
const computableName = (key: string) => `Q${key.replace(/(^|[-_])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase())}`.replace(/^Q([A-Z])/, '$1');

const limit = (url: string, type: QuestionnaireItem['type'], n: number): Extension =>
  type === 'integer' && Number.isInteger(n) ? { url, valueInteger: n } : { url, valueDecimal: n };

function itemExtensions(item: QuestionnaireItem, conditionExtension: boolean): Extension[] | undefined {
  const ext: Extension[] = [];
  if (item.min !== undefined) ext.push(limit(EXTENSIONS.minValue, item.type, item.min));
  if (item.max !== undefined) ext.push(limit(EXTENSIONS.maxValue, item.type, item.max));
  if (item.unit) ext.push({ url: EXTENSIONS.unit, valueCoding: { system: 'http://unitsofmeasure.org', ...UCUM[item.unit] } });
  if (item.fact) ext.push({ url: EXTENSIONS.identityFact, valueCode: item.fact });
  if (conditionExtension && item.enableWhen) ext.push({ url: EXTENSIONS.condition, valueString: JSON.stringify(item.enableWhen) });
  return ext.length ? ext : undefined;
}

function toFhirItem(item: QuestionnaireItem, types: ReadonlyMap<string, QuestionnaireItem['type']>): FhirItem {
  const enable = item.enableWhen ? toEnableWhen(item.enableWhen, types) : null;
  return {
    linkId: item.linkId,
    text: item.text,
    type: FHIR_TYPE[item.type],
    required: item.required,
    repeats: item.type === 'multi_choice' ? true : undefined,
    extension: itemExtensions(item, Boolean(item.enableWhen) && !enable),
    enableWhen: enable?.enableWhen,
    enableBehavior: enable?.enableBehavior,
    answerOption: item.options?.map((o) => ({
      valueCoding: { code: o.value, display: o.label },
      ...(o.exclusive ? { extension: [{ url: EXTENSIONS.optionExclusive, valueBoolean: true }] } : {}),
    })),
    // Help text as FHIR writes it: a display child marked with the `help` item control.
    item: item.help
      ? [
          {
            linkId: `${item.linkId}.help`,
            type: 'display',
            text: item.help,
            extension: [{ url: EXTENSIONS.itemControl, valueCodeableConcept: { coding: [{ system: ITEM_CONTROL_SYSTEM, code: 'help', display: 'Help-Button' }] } }],
          },
        ]
      : undefined,
  };
}

/** The rules (disqualifiers and review flags) as the project's rule extension; FHIR has no element for them. */
function ruleExtensions(document: QuestionnaireDocument): Extension[] {
  return document.rules.map((rule) => ({
    url: EXTENSIONS.rule,
    extension: [
      { url: 'id', valueString: rule.id },
      { url: 'effect', valueCode: rule.effect },
      { url: 'patientMessage', valueString: rule.patientMessage },
      { url: 'when', valueString: JSON.stringify(rule.when) },
    ],
  }));
}

/** One questionnaire version as FHIR R4 Questionnaire: canonical `url` and `version`, items, conditions and rules. */
export function toFhirQuestionnaire(row: QuestionnaireRow, publicUrl: string): Questionnaire {
  const { document } = row;
  const types = new Map(document.items.map((i) => [i.linkId, i.type]));
  const rules = ruleExtensions(document);
  return {
    resourceType: 'Questionnaire',
    id: toFhirId(row.id),
    meta: { lastUpdated: row.updatedAt.toISOString() },
    extension: rules.length ? rules : undefined,
    url: questionnaireCanonical(publicUrl, row),
    version: String(row.version),
    name: computableName(row.key),
    title: document.title,
    status: STATUS[row.status],
    subjectType: ['Patient'],
    date: (row.approvedAt ?? row.createdAt).toISOString(),
    approvalDate: row.approvedAt ? row.approvedAt.toISOString().slice(0, 10) : undefined,
    description: document.description,
    item: document.items.map((item) => toFhirItem(item, types)),
  };
}
