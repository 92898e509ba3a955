import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import type { QuestionnaireDocument } from '../questionnaire-schema';

/**
 * GLP-1 weight management intake, modelled on the label contraindications of semaglutide/tirzepatide:
 * BMI ≥ 30, or ≥ 27 with a weight-related condition; never in pregnancy, personal or family history of
 * medullary thyroid carcinoma or MEN2, pancreatitis, type 1 diabetes; adults only.
 */
export const weightManagement: QuestionnaireDocument = {
  key: 'weight-management',
  title: 'Weight management consultation',
  description: 'A few questions so a licensed provider can decide whether a GLP-1 medication is safe and appropriate for you.',
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
        { value: 'female', label: 'Female' },
        { value: 'male', label: 'Male' },
        { value: 'intersex', label: 'Intersex' },
      ],
    },
    { linkId: 'height', text: 'How tall are you?', help: 'In inches (5 ft 6 in = 66).', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'How much do you weigh?', help: 'In pounds.', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
    {
      linkId: 'comorbidities',
      text: 'Do you have any of these conditions?',
      type: 'multi_choice',
      required: true,
      options: [
        { value: 'hypertension', label: 'High blood pressure' },
        { value: 'type2_diabetes', label: 'Type 2 diabetes or prediabetes' },
        { value: 'dyslipidemia', label: 'High cholesterol' },
        { value: 'sleep_apnea', label: 'Obstructive sleep apnea' },
        { value: 'cardiovascular', label: 'Heart disease' },
        { value: 'none', label: 'None of these', exclusive: true },
      ],
    },
    {
      linkId: 'pregnant',
      text: 'Are you pregnant, breastfeeding, or planning to become pregnant in the next 3 months?',
      type: 'boolean',
      required: true,
      enableWhen: { q: 'sex', op: 'in', value: ['female', 'intersex'] },
    },
    { linkId: 'mtc_men2', text: 'Have you or anyone in your family had medullary thyroid cancer or multiple endocrine neoplasia type 2 (MEN2)?', type: 'boolean', required: true },
    { linkId: 'pancreatitis', text: 'Have you ever had pancreatitis?', type: 'boolean', required: true },
    { linkId: 'type1_diabetes', text: 'Do you have type 1 diabetes?', type: 'boolean', required: true },
    {
      linkId: 'eating_disorder',
      text: 'Have you been diagnosed with, or treated for, an eating disorder (anorexia, bulimia, binge eating)?',
      type: 'choice',
      required: true,
      options: [
        { value: 'never', label: 'Never' },
        { value: 'past', label: 'In the past, not now' },
        { value: 'current', label: 'Yes, currently' },
      ],
    },
    { linkId: 'gallbladder', text: 'Have you had gallbladder disease or gallstones?', type: 'boolean', required: true },
    { linkId: 'glp1_current', text: 'Are you currently taking a GLP-1 medication (for example semaglutide or tirzepatide)?', type: 'boolean', required: true },
    {
      linkId: 'glp1_name',
      text: 'Which medication, what dose, and when was your last dose?',
      type: 'string',
      required: true,
      enableWhen: { q: 'glp1_current', op: 'eq', value: true },
    },
    { linkId: 'medications', text: 'List any other medications or supplements you take.', type: 'text', required: false },
  ],
  rules: [
    { id: 'under_18', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This treatment is only available to adults 18 and over.' },
    {
      id: 'bmi_too_low',
      when: {
        any: [
          { q: 'bmi(height, weight)', op: 'lt', value: 27 },
          {
            all: [
              { q: 'bmi(height, weight)', op: 'lt', value: 30 },
              { not: { q: 'comorbidities', op: 'in', value: ['hypertension', 'type2_diabetes', 'dyslipidemia', 'sleep_apnea', 'cardiovascular'] } },
            ],
          },
        ],
      },
      effect: 'disqualify',
      patientMessage: 'Medication is prescribed for a BMI of 30 or more, or 27 or more with a weight-related condition.',
    },
    { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This medication must not be used during pregnancy or breastfeeding.' },
    { id: 'mtc_men2', when: { q: 'mtc_men2', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This medication is not safe with a personal or family history of MTC or MEN2.' },
    { id: 'pancreatitis', when: { q: 'pancreatitis', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This medication is not recommended after pancreatitis.' },
    { id: 'type1_diabetes', when: { q: 'type1_diabetes', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This medication is not a treatment for type 1 diabetes.' },
    { id: 'eating_disorder_current', when: { q: 'eating_disorder', op: 'eq', value: 'current' }, effect: 'disqualify', patientMessage: 'A provider needs to see you in person before weight medication.' },
    { id: 'eating_disorder_past', when: { q: 'eating_disorder', op: 'eq', value: 'past' }, effect: 'review_flag', patientMessage: 'A provider will review your history with you.' },
    { id: 'gallbladder', when: { q: 'gallbladder', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review your gallbladder history.' },
    { id: 'glp1_current', when: { q: 'glp1_current', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will confirm your current dose before continuing it.' },
    { id: 'age_65_plus', when: { q: 'age(dob)', op: 'gte', value: 65 }, effect: 'review_flag', patientMessage: 'A provider will review your dose plan.' },
  ],
};
