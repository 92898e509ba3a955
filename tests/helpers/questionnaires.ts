/** A small, valid questionnaire document: weight check with BMI, a contraindication and a review flag. */
export function sampleQuestionnaire(key = 'weight-check', extra: Record<string, unknown> = {}) {
  return {
    key,
    title: 'Weight management check',
    description: 'Eligibility for a GLP-1 programme.',
    items: [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
      { linkId: 'height_cm', text: 'Height', type: 'decimal', required: true, min: 100, max: 250, unit: 'cm' },
      { linkId: 'weight_kg', text: 'Weight', type: 'decimal', required: true, min: 30, max: 400, unit: 'kg' },
      { linkId: 'mtc', text: 'Have you or a close relative had medullary thyroid cancer?', type: 'boolean', required: true },
      { linkId: 'meds', text: 'Do you take insulin?', type: 'boolean', required: true },
      { linkId: 'insulin_dose', text: 'Your daily insulin units', type: 'integer', required: true, enableWhen: { q: 'meds', op: 'eq', value: true } },
    ],
    rules: [
      { id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This programme is for adults.' },
      { id: 'low_bmi', when: { q: 'bmi(height_cm, weight_kg)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'Your BMI is below the threshold for this programme.' },
      { id: 'thyroid', when: { q: 'mtc', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'A provider must see you in person first.' },
      { id: 'insulin', when: { q: 'meds', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review your insulin use.' },
    ],
    ...extra,
  };
}
