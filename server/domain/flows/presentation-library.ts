import type { FlowPresentation } from './clinical-steps';
import { TOPIC_LANDING, type FlowTopic } from './shared/topic-landing';

/**
 * Ready-made presentation copy by topic: the offline generator's answers (DESIGN decision 22) and the demo
 * flow's copy. Marketing only: the quizzes ask about goals and preferences, never health.
 */

export interface TopicCopy {
  topic: FlowTopic;
  /** Words a description about this topic tends to use; what the offline generator matches on. */
  keywords: string;
  name: string;
  presentation: FlowPresentation;
}

const outcome = (what: string): FlowPresentation['outcome'] => ({
  eligibleTitle: 'You may be a good fit',
  eligibleBody: `Thanks, that is everything we need. A licensed provider will review your answers, usually within one business day, and contact you about ${what}.`,
  disqualifiedTitle: 'This program is not the right fit',
  disqualifiedBody: 'Based on your answers, this online program is not the safest option for you. Please talk to your doctor or a clinic near you.',
  // No button label: with nowhere to lead, "Done" would only be said as a next step; a checkout says its own.
});

const COPY: Record<FlowTopic, TopicCopy> = {
  weight: {
    topic: 'weight',
    keywords: 'weight loss lose pounds obesity bmi glp-1 glp1 semaglutide tirzepatide wegovy ozempic mounjaro zepbound metabolic diet',
    name: 'Medical weight loss',
    presentation: {
      landing: { ...TOPIC_LANDING.weight },
      quiz: {
        blocks: { title: 'First, your goals', body: 'A few quick questions so we can tailor the program.', cta: 'Continue' },
        questions: [
          {
            id: 'goal',
            text: 'What is your main goal?',
            type: 'choice',
            required: true,
            options: [
              { value: 'lose_10', label: 'Lose up to 10% of my weight' },
              { value: 'lose_more', label: 'Lose more than 10%' },
              { value: 'maintain', label: 'Keep off weight I have lost' },
              { value: 'energy', label: 'Feel healthier and more energetic' },
            ],
          },
          {
            id: 'tried_before',
            text: 'What have you tried before?',
            type: 'multi_choice',
            required: false,
            options: [
              { value: 'diet', label: 'Diets' },
              { value: 'exercise', label: 'Exercise programs' },
              { value: 'apps', label: 'Apps or coaching' },
              { value: 'nothing', label: 'Nothing yet' },
            ],
          },
        ],
      },
      outcome: outcome('your weight-loss plan'),
      theme: { tokens: { primary: '#0f766e', 'primary-contrast': '#ffffff', background: '#f8fafc', surface: '#ffffff', text: '#0f172a', radius: '12px' } },
    },
  },
  hair: {
    topic: 'hair',
    keywords: 'hair loss thinning balding baldness hairline crown regrowth finasteride minoxidil alopecia',
    name: 'Hair regrowth',
    presentation: {
      landing: { ...TOPIC_LANDING.hair },
      quiz: {
        blocks: { title: 'What matters to you', cta: 'Continue' },
        questions: [
          {
            id: 'priority',
            text: 'What would you most like to see?',
            type: 'choice',
            required: true,
            options: [
              { value: 'stop_loss', label: 'Stop further hair loss' },
              { value: 'regrow', label: 'Regrow hair' },
              { value: 'both', label: 'Both' },
            ],
          },
          {
            id: 'format',
            text: 'Which kind of treatment would you prefer?',
            type: 'choice',
            required: false,
            options: [
              { value: 'pill', label: 'A daily pill' },
              { value: 'topical', label: 'A topical solution' },
              { value: 'unsure', label: 'Not sure yet' },
            ],
          },
        ],
      },
      outcome: outcome('your hair-loss treatment'),
      theme: { tokens: { primary: '#1d4ed8', 'primary-contrast': '#ffffff', background: '#f8fafc', surface: '#ffffff', text: '#111827', radius: '10px' } },
    },
  },
  refill: {
    topic: 'refill',
    keywords: 'refill renew renewal repeat prescription maintenance continue medication reorder',
    name: 'Prescription refills',
    presentation: {
      landing: { ...TOPIC_LANDING.refill },
      quiz: {
        blocks: { title: 'How can we make refills easier?', cta: 'Continue' },
        questions: [
          {
            id: 'delivery',
            text: 'How would you like to receive your refills?',
            type: 'choice',
            required: true,
            options: [
              { value: 'home', label: 'Delivered to my home' },
              { value: 'reminder', label: 'Delivered, with a reminder before each refill' },
            ],
          },
        ],
      },
      outcome: outcome('your refill'),
      theme: { tokens: { primary: '#7c3aed', 'primary-contrast': '#ffffff', radius: '12px' } },
    },
  },
  general: {
    topic: 'general',
    keywords: 'online visit consultation telehealth doctor provider treatment care',
    name: 'Online consultation',
    presentation: {
      landing: { ...TOPIC_LANDING.general },
      quiz: {
        blocks: { title: 'A little about what you are looking for', cta: 'Continue' },
        questions: [
          {
            id: 'heard_from',
            text: 'How did you hear about us?',
            type: 'choice',
            required: false,
            options: [
              { value: 'search', label: 'Search engine' },
              { value: 'social', label: 'Social media' },
              { value: 'friend', label: 'A friend or family member' },
              { value: 'other', label: 'Somewhere else' },
            ],
          },
        ],
      },
      outcome: outcome('next steps'),
      theme: { tokens: { primary: '#0f766e', 'primary-contrast': '#ffffff', radius: '12px' } },
    },
  },
};

/** A deep copy, so callers may hand it on without sharing the library's objects. */
export const topicCopy = (topic: FlowTopic): TopicCopy => structuredClone(COPY[topic]);
