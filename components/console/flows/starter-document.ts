import { TOPIC_LANDING, topicOf } from '@/server/domain/flows/shared/topic-landing';
import type { DraftDocument } from './flow-types';

/**
 * The draft a new flow starts from: every questionnaire item on one medical page, so it can be published as is.
 * The landing page speaks to the patient: the topic's landing copy (shared/topic-landing.ts) for what the questionnaire is about
 * (its key and title), never the flow's internal name, which only the team sees.
 */
export function starterDocument(questionnaire: { key: string; title: string }, linkIds: string[]): DraftDocument {
  const { headline, body, cta } = TOPIC_LANDING[topicOf(questionnaire)];
  return {
    steps: [
      { id: 'welcome', kind: 'landing', blocks: { headline, body, cta } },
      { id: 'health', kind: 'medical', title: 'About your health', linkIds },
      { id: 'consent', kind: 'consent', title: 'Consent to telehealth', text: 'I agree to be assessed by a licensed provider through telehealth and confirm my answers are true.', version: 'v1' },
      { id: 'contact', kind: 'contact', title: 'Your details' },
      {
        id: 'result',
        kind: 'outcome',
        blocks: {
          eligibleTitle: 'You may be a good fit',
          eligibleBody: 'A licensed provider will review your answers and contact you.',
          disqualifiedTitle: 'This treatment may not be right for you',
          disqualifiedBody: 'Based on your answers we cannot offer it; please talk to your doctor about other options.',
        },
      },
    ],
    theme: { tokens: {} },
    settings: { questionnaireKey: questionnaire.key },
  };
}
