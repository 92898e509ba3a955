import { router } from '@/server/api/trpc';
import { createHostedLinkRoute } from './create-hosted-link';
import { getHostedIntakeRoute } from './get-hosted-intake';
import { submitHostedIntakeRoute } from './submit-hosted-intake';

// Spread into the intake router (router.ts): `/public/intake/hosted/…` before `/public/intake/{embedKey}/…`.
export const hostedRoutes = {
  createHostedLink: createHostedLinkRoute,
  getHostedIntake: getHostedIntakeRoute,
  submitHostedIntake: submitHostedIntakeRoute,
};

export const intakeHostedRouter = router(hostedRoutes);
