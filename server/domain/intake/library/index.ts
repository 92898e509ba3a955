import type { QuestionnaireDocument } from '../questionnaire-schema';

// TEMPORARY (issue 22, questionnaires helper): a one-document stand-in so the AI draft and the seed compile;
// the engine helper's library (three realistic documents) replaces this file when merged.
export const QUESTIONNAIRE_LIBRARY: readonly QuestionnaireDocument[] = [
  {
    key: 'general-refill',
    title: 'Prescription refill check-in',
    description: 'A short check-in before refilling a current prescription.',
    items: [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
      { linkId: 'taking_as_prescribed', text: 'Are you taking the medication as prescribed?', type: 'boolean', required: true },
      { linkId: 'side_effects', text: 'Have you had any side effects since your last refill?', type: 'boolean', required: true },
      { linkId: 'side_effects_detail', text: 'Describe the side effects', type: 'text', required: true, enableWhen: { q: 'side_effects', op: 'eq', value: true } },
      { linkId: 'pregnant', text: 'Are you pregnant, planning a pregnancy or breastfeeding?', type: 'boolean', required: true },
    ],
    rules: [
      { id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'Refills through this service are for adults 18 and over.' },
      { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Please talk to your doctor in person before refilling during pregnancy or breastfeeding.' },
      { id: 'side_effects_review', when: { q: 'side_effects', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review the side effects you reported.' },
    ],
  },
];
