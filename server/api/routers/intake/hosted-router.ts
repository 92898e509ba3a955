import { createHostedLinkRoute } from './create-hosted-link';
import { getHostedIntakeRoute } from './get-hosted-intake';
import { getPublicQuestionnaireRoute } from './get-public-questionnaire';
import { submitPublicIntakeRoute } from './submit-public-intake';
import { submitHostedIntakeRoute } from './submit-hosted-intake';

// Public intake and hosted links, spread into the intake router (router.ts); `/public/intake/hosted/…` first.
export const hostedRoutes = {
  createHostedLink: createHostedLinkRoute,
  getHostedIntake: getHostedIntakeRoute,
  submitHostedIntake: submitHostedIntakeRoute,
  getPublicQuestionnaire: getPublicQuestionnaireRoute,
  submitPublicIntake: submitPublicIntakeRoute,
};

