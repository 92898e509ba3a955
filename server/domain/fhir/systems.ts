/**
 * The code systems, identifier systems and extensions the FHIR mappings use. Standard ones where FHIR or US Core
 * defines one; the project's own (a questionnaire's rules, identity facts and conditions the FHIR `enableWhen`
 * cannot express) under one fixed URN, the same on every deployment, so that a questionnaire exported by one
 * deployment imports into another.
 */
export const FHIR_VERSION = '4.0.1';

export const SYSTEMS = {
  npi: 'http://hl7.org/fhir/sid/us-npi',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  ucum: 'http://unitsofmeasure.org',
  actReason: 'http://terminology.hl7.org/CodeSystem/v3-ActReason',
  /** The project's own error codes (`error.code` of the REST envelope), on OperationOutcome issues. */
  errorCode: 'urn:fulfillment-rail:fhir:error-code',
  /** Our own ids, as identifiers: the FHIR id writes `_` as `-`, the identifier keeps the id as the REST API spells it. */
  patientId: 'urn:fulfillment-rail:fhir:patient-id',
  orderId: 'urn:fulfillment-rail:fhir:order-id',
  submissionId: 'urn:fulfillment-rail:fhir:intake-submission-id',
} as const;

export const EXTENSIONS = {
  birthSex: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-birthsex',
  minValue: 'http://hl7.org/fhir/StructureDefinition/minValue',
  maxValue: 'http://hl7.org/fhir/StructureDefinition/maxValue',
  unit: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unit',
  itemControl: 'http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl',
  optionExclusive: 'http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive',
  /** A rule of the questionnaire: sub-extensions `id`, `effect`, `patientMessage`, `when` (the condition as JSON). */
  rule: 'urn:fulfillment-rail:fhir:StructureDefinition:questionnaire-rule',
  /** An item's identity fact (DESIGN decision 31): `dateOfBirth`, `sexAtBirth` or `state`. */
  identityFact: 'urn:fulfillment-rail:fhir:StructureDefinition:identity-fact',
  /** An item's enabling condition as JSON, where FHIR's `enableWhen` cannot say it exactly (`not`, nesting, `age()`, `bmi()`). */
  condition: 'urn:fulfillment-rail:fhir:StructureDefinition:enable-condition',
} as const;

export const ITEM_CONTROL_SYSTEM = 'http://hl7.org/fhir/questionnaire-item-control';

/** Our units as UCUM codes (the questionnaire-unit extension's Coding), and back. */
export const UCUM: Record<'cm' | 'in' | 'kg' | 'lb', { code: string; display: string }> = {
  cm: { code: 'cm', display: 'cm' },
  in: { code: '[in_i]', display: 'in' },
  kg: { code: 'kg', display: 'kg' },
  lb: { code: '[lb_av]', display: 'lb' },
};
