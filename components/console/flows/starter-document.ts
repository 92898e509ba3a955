import type { DraftDocument } from './flow-types';

/** The draft a new flow starts from: every questionnaire item on one medical page, so it can be published as is. */
export function starterDocument(name: string, questionnaireKey: string, linkIds: string[]): DraftDocument {
  return {
    steps: [
      { id: 'welcome', kind: 'landing', blocks: { headline: name || 'See if treatment is right for you', body: 'A few questions, about five minutes. A licensed provider reviews every answer.', cta: 'Start' } },
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
    settings: { questionnaireKey },
  };
}
