import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';

/**
 * A FHIR R4 Questionnaire as another system would write it, using everything the import supports: every item
 * type (boolean, choice, repeating choice, integer, decimal, date, string, text, display, group), `required`,
 * min/max and unit extensions, an exclusive option, and enableWhen with each operator and both behaviors.
 */
export function richFhirQuestionnaire(overrides: Record<string, unknown> = {}) {
  return {
    resourceType: 'Questionnaire',
    url: 'https://ehr.example/Questionnaire/sleep-intake',
    version: '3',
    name: 'SleepIntake',
    title: 'Sleep clinic intake',
    status: 'active',
    publisher: 'Example EHR',
    description: 'Tell us about your sleep.',
    item: [
      { linkId: 'intro', type: 'display', text: 'This takes about two minutes.' },
      { linkId: 'dob', type: 'date', text: 'Date of birth', required: true },
      { linkId: 'snores', type: 'boolean', text: 'Do you snore?', required: true },
      {
        linkId: 'loudness',
        type: 'choice',
        text: 'How loud?',
        required: true,
        enableWhen: [{ question: 'snores', operator: '=', answerBoolean: true }],
        answerOption: [{ valueCoding: { system: 'https://ehr.example/cs', code: 'soft', display: 'Soft' } }, { valueCoding: { code: 'loud', display: 'Loud' } }, { valueString: 'unbearable' }],
      },
      {
        linkId: 'symptoms',
        type: 'choice',
        repeats: true,
        text: 'Which of these?',
        required: false,
        answerOption: [
          { valueCoding: { code: 'gasping', display: 'Gasping at night' } },
          { valueCoding: { code: 'headache', display: 'Morning headache' } },
          { valueCoding: { code: 'none', display: 'None of these' }, extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/questionnaire-optionExclusive', valueBoolean: true }] },
        ],
      },
      {
        linkId: 'hours',
        type: 'integer',
        text: 'Hours of sleep a night',
        required: true,
        extension: [
          { url: 'http://hl7.org/fhir/StructureDefinition/minValue', valueInteger: 0 },
          { url: 'http://hl7.org/fhir/StructureDefinition/maxValue', valueInteger: 24 },
        ],
      },
      {
        linkId: 'neck',
        type: 'decimal',
        text: 'Neck circumference',
        required: false,
        extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/questionnaire-unit', valueCoding: { system: 'http://unitsofmeasure.org', code: 'cm' } }],
        item: [{ linkId: 'neck-help', type: 'display', text: 'Measure just below the Adam’s apple.' }],
      },
      {
        linkId: 'details',
        type: 'group',
        text: 'A few more details',
        enableWhen: [
          { question: 'hours', operator: '<', answerInteger: 6 },
          { question: 'hours', operator: '>', answerInteger: 10 },
        ],
        enableBehavior: 'any',
        item: [
          { linkId: 'since', type: 'date', text: 'Since when?', required: false, enableWhen: [{ question: 'dob', operator: 'exists', answerBoolean: true }] },
          { linkId: 'naps', type: 'integer', text: 'Naps a day', required: false, enableWhen: [{ question: 'hours', operator: '>=', answerInteger: 0 }, { question: 'hours', operator: '<=', answerInteger: 24 }], enableBehavior: 'all' },
          { linkId: 'why', type: 'string', text: 'Why, do you think?', required: false, enableWhen: [{ question: 'loudness', operator: '!=', answerCoding: { code: 'soft' } }] },
        ],
      },
      { linkId: 'neckBig', type: 'boolean', text: 'Has a doctor called your neck large?', required: false, enableWhen: [{ question: 'neck', operator: '>=', answerDecimal: 40.5 }] },
      { linkId: 'notes', type: 'text', text: 'Anything else?', required: false },
    ],
    ...overrides,
  };
}

/**
 * A document that uses the whole condition language (derived values, not, in, nin, exists, nesting), identity
 * facts, help, units, limits and an exclusive option: the round trip's subject.
 */
export function richDocument(key: string): QuestionnaireDocument {
  return {
    key,
    title: 'Round trip',
    description: 'Everything the engine reads.',
    items: [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth' },
      { linkId: 'sex', text: 'Sex at birth', type: 'choice', required: true, fact: 'sexAtBirth', options: [{ value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }, { value: 'intersex', label: 'Intersex' }] },
      { linkId: 'height', text: 'Height', type: 'decimal', required: true, unit: 'cm', min: 100, max: 230, help: 'Without shoes.' },
      { linkId: 'weight', text: 'Weight', type: 'decimal', required: true, unit: 'kg', min: 30, max: 300 },
      { linkId: 'pregnant', text: 'Pregnant?', type: 'boolean', required: true, enableWhen: { q: 'sex', op: 'in', value: ['female', 'intersex'] } },
      { linkId: 'conditions', text: 'Conditions', type: 'multi_choice', required: false, options: [{ value: 'diabetes', label: 'Diabetes' }, { value: 'thyroid', label: 'Thyroid cancer' }, { value: 'none', label: 'None of these', exclusive: true }] },
      { linkId: 'a1c', text: 'Last HbA1c', type: 'decimal', required: true, min: 3, max: 20, enableWhen: { q: 'conditions', op: 'eq', value: 'diabetes' } },
      { linkId: 'drinks', text: 'Drinks a week', type: 'integer', required: true, min: 0, max: 100 },
      { linkId: 'drinkNote', text: 'Tell us more', type: 'text', required: false, enableWhen: { all: [{ q: 'drinks', op: 'gt', value: 14 }, { q: 'conditions', op: 'nin', value: ['none'] }] } },
      { linkId: 'adultOnly', text: 'Anything we should know?', type: 'string', required: false, enableWhen: { not: { q: 'age(dob)', op: 'lt', value: 18 } } },
      { linkId: 'lastVisit', text: 'Last visit', type: 'date', required: false, enableWhen: { any: [{ q: 'drinks', op: 'gte', value: 7 }, { q: 'a1c', op: 'exists', value: true }] } },
    ],
    rules: [
      { id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'Adults only.' },
      { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Not during pregnancy.' },
      { id: 'thyroid', when: { q: 'conditions', op: 'in', value: ['thyroid'] }, effect: 'disqualify', patientMessage: 'Not with a history of thyroid cancer.' },
      { id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'For a BMI of 27 or more.' },
      { id: 'bmi_high', when: { q: 'bmi(height, weight)', op: 'gte', value: 40 }, effect: 'review_flag', patientMessage: 'A clinician will look closely.' },
      { id: 'a1c_high', when: { all: [{ q: 'a1c', op: 'exists' }, { q: 'a1c', op: 'gte', value: 9 }] }, effect: 'review_flag', patientMessage: 'A clinician will look closely.' },
      { id: 'drinks', when: { any: [{ q: 'drinks', op: 'gt', value: 21 }, { not: { q: 'drinkNote', op: 'exists', value: false } }] }, effect: 'review_flag', patientMessage: 'A clinician will ask about alcohol.' },
    ],
  };
}
