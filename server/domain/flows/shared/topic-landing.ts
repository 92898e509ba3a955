/**
 * What a questionnaire is about, and the landing copy a flow about it opens with (pure, so the console's create
 * form can start a new flow with it): patient-facing words, never the flow's internal name. The presentation
 * library (../presentation-library.ts) builds each topic's whole copy around these.
 */

export type FlowTopic = 'weight' | 'hair' | 'refill' | 'general';

export const TOPIC_LANDING: Record<FlowTopic, { headline: string; body: string; cta: string }> = {
  weight: {
    headline: 'Lose weight with a plan built around you',
    body: 'Licensed providers, GLP-1 medication when it is right for you, and support at every step. Find out in a few minutes whether the program fits.',
    cta: 'Check my eligibility',
  },
  hair: {
    headline: 'Keep the hair you have, and regrow what you can',
    body: 'Clinically proven treatments prescribed online by licensed providers, delivered to your door.',
    cta: 'Start my visit',
  },
  refill: {
    headline: 'Refill your prescription without the waiting room',
    body: 'Tell us how your treatment is going; a licensed provider reviews your request and your pharmacy ships it.',
    cta: 'Request a refill',
  },
  general: {
    headline: 'See a licensed provider online',
    body: 'Answer a few questions from home; a provider reviews them and gets back to you.',
    cta: 'Get started',
  },
};

/** What a questionnaire is about, from its key and title (the demo seed's protocol choice reads it the same way). */
export function topicOf(doc: { key: string; title: string }): FlowTopic {
  const about = `${doc.key} ${doc.title}`.toLowerCase();
  if (/hair|alopecia|finasteride|minoxidil/.test(about)) return 'hair';
  if (/refill|renew|maintenance/.test(about)) return 'refill';
  if (/weight|obesity|glp|semaglutide|tirzepatide/.test(about)) return 'weight';
  return 'general';
}
