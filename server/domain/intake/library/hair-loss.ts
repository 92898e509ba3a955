import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import type { QuestionnaireDocument } from '../questionnaire-schema';

/**
 * Hair loss intake for oral or topical finasteride and minoxidil. Finasteride is contraindicated for anyone who
 * is or may become pregnant (handling crushed tablets included); prostate findings and liver disease need a
 * provider's look; patchy or sudden loss is not pattern hair loss.
 */
export const hairLoss: QuestionnaireDocument = {
  key: 'hair-loss',
  title: 'Hair loss consultation',
  description: 'Tell us about your hair loss and health so a licensed provider can recommend a treatment.',
  items: [
    { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true, fact: 'dateOfBirth' },
    { linkId: 'state', text: 'Which US state do you live in?', type: 'choice', required: true, options: US_STATE_OPTIONS, fact: 'state' },
    {
      linkId: 'sex',
      text: 'What sex were you assigned at birth?',
      type: 'choice',
      required: true,
      fact: 'sexAtBirth',
      options: [
        { value: 'male', label: 'Male' },
        { value: 'female', label: 'Female' },
      ],
    },
    {
      linkId: 'pattern',
      text: 'Which best describes your hair loss?',
      type: 'choice',
      required: true,
      options: [
        { value: 'receding', label: 'Receding hairline' },
        { value: 'crown', label: 'Thinning at the crown' },
        { value: 'diffuse', label: 'Overall thinning' },
        { value: 'patchy', label: 'Patches or sudden loss' },
      ],
    },
    { linkId: 'duration_months', text: 'For how many months have you noticed it?', type: 'integer', required: true, min: 0, max: 600 },
    {
      linkId: 'pregnant_or_trying',
      text: 'Are you pregnant, breastfeeding, or trying to conceive?',
      type: 'boolean',
      required: true,
      enableWhen: { q: 'sex', op: 'eq', value: 'female' },
    },
    {
      linkId: 'prostate',
      text: 'Have you had prostate cancer, an enlarged prostate, or an abnormal PSA test?',
      type: 'boolean',
      required: true,
      enableWhen: { q: 'sex', op: 'eq', value: 'male' },
    },
    { linkId: 'liver_disease', text: 'Do you have liver disease (for example cirrhosis or hepatitis)?', type: 'boolean', required: true },
    { linkId: 'low_blood_pressure', text: 'Do you have low blood pressure or a heart condition?', type: 'boolean', required: true },
    { linkId: 'depression', text: 'Have you been treated for depression in the last year?', type: 'boolean', required: true },
    {
      linkId: 'treatment_preference',
      text: 'Which treatments are you interested in?',
      type: 'multi_choice',
      required: false,
      options: [
        { value: 'finasteride_oral', label: 'Finasteride tablets' },
        { value: 'minoxidil_oral', label: 'Minoxidil tablets' },
        { value: 'minoxidil_topical', label: 'Minoxidil solution or foam' },
      ],
    },
  ],
  rules: [
    { id: 'under_18', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This treatment is only available to adults 18 and over.' },
    { id: 'pregnancy', when: { q: 'pregnant_or_trying', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'These medications must not be used during pregnancy, breastfeeding or while trying to conceive.' },
    { id: 'liver_disease', when: { q: 'liver_disease', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Liver disease needs an in-person assessment before these medications.' },
    { id: 'patchy_loss', when: { q: 'pattern', op: 'eq', value: 'patchy' }, effect: 'disqualify', patientMessage: 'Patchy or sudden hair loss needs an in-person examination.' },
    { id: 'prostate', when: { q: 'prostate', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review your prostate history, as finasteride affects PSA results.' },
    {
      id: 'oral_minoxidil_cardiac',
      when: { all: [{ q: 'low_blood_pressure', op: 'eq', value: true }, { q: 'treatment_preference', op: 'eq', value: 'minoxidil_oral' }] },
      effect: 'review_flag',
      patientMessage: 'A provider will check whether minoxidil tablets are safe for your heart and blood pressure.',
    },
    { id: 'depression', when: { q: 'depression', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will discuss mood-related side effects with you.' },
  ],
};
