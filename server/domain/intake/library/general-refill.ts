import type { QuestionnaireDocument } from '../questionnaire-schema';

/**
 * Refill of an existing prescription: confirms nothing has changed since the last visit. Anything new goes to
 * the provider as a flag; a visit more than a year ago needs a new consultation in most states.
 */
export const generalRefill: QuestionnaireDocument = {
  key: 'general-refill',
  title: 'Prescription refill',
  description: 'Request a refill of a medication a provider already prescribed for you.',
  items: [
    { linkId: 'medication', text: 'Which medication do you want refilled?', help: 'Name and strength as on the label.', type: 'string', required: true },
    { linkId: 'last_visit', text: 'When did a provider last review this prescription with you?', type: 'date', required: true },
    { linkId: 'taking_as_prescribed', text: 'Are you taking it as prescribed?', type: 'boolean', required: true },
    { linkId: 'side_effects', text: 'Have you had any side effects?', type: 'boolean', required: true },
    {
      linkId: 'side_effects_detail',
      text: 'Please describe the side effects and how severe they are.',
      type: 'text',
      required: true,
      enableWhen: { q: 'side_effects', op: 'eq', value: true },
    },
    {
      linkId: 'health_changes',
      text: 'Since your last visit, has any of this changed?',
      type: 'multi_choice',
      required: true,
      options: [
        { value: 'new_diagnosis', label: 'A new diagnosis' },
        { value: 'new_medication', label: 'A new medication or supplement' },
        { value: 'hospital', label: 'A hospital stay or emergency visit' },
        { value: 'pregnancy', label: 'Pregnancy or breastfeeding' },
        { value: 'none', label: 'Nothing has changed', exclusive: true },
      ],
    },
    {
      linkId: 'changes_detail',
      text: 'Tell us more about what changed.',
      type: 'text',
      required: true,
      enableWhen: { q: 'health_changes', op: 'in', value: ['new_diagnosis', 'new_medication', 'hospital', 'pregnancy'] },
    },
    { linkId: 'severe_reaction', text: 'Have you had a severe reaction to it (trouble breathing, swelling of the face or throat)?', type: 'boolean', required: true },
  ],
  rules: [
    { id: 'severe_reaction', when: { q: 'severe_reaction', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Please stop the medication and seek medical care; it cannot be refilled online.' },
    { id: 'not_as_prescribed', when: { q: 'taking_as_prescribed', op: 'eq', value: false }, effect: 'review_flag', patientMessage: 'A provider will talk with you about how you take it.' },
    { id: 'side_effects', when: { q: 'side_effects', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review your side effects.' },
    {
      id: 'health_changed',
      when: { q: 'health_changes', op: 'in', value: ['new_diagnosis', 'new_medication', 'hospital', 'pregnancy'] },
      effect: 'review_flag',
      patientMessage: 'A provider will review what changed before refilling.',
    },
    // age() of any date item is whole years since it: a last review a year or more ago.
    { id: 'review_overdue', when: { q: 'age(last_visit)', op: 'gte', value: 1 }, effect: 'review_flag', patientMessage: 'Your last review was over a year ago; a provider may ask for a visit.' },
    { id: 'visit_date_future', when: { q: 'age(last_visit)', op: 'lt', value: 0 }, effect: 'review_flag', patientMessage: 'A provider will confirm the date of your last review.' },
  ],
};
