import { router } from '@/server/api/trpc';
import { acceptInviteRoute } from './accept-invite';
import { loginRoute } from './login';
import { logoutRoute } from './logout';
import { magicLinkRoute } from './magic-link';
import { meRoute } from './me';
import { mfaEnrollRoute } from './mfa-enroll';
import { mfaVerifyRoute } from './mfa-verify';
import { providerCheckRoute } from './provider-check';
import { refreshRoute } from './refresh';
import { verifyMagicLinkRoute } from './verify-magic-link';
import { consoleGrantsRoute } from './grants';

export const authRouter = router({
  login: loginRoute,
  mfaEnroll: mfaEnrollRoute,
  mfaVerify: mfaVerifyRoute,
  refresh: refreshRoute,
  logout: logoutRoute,
  magicLinkVerify: verifyMagicLinkRoute,
  magicLink: magicLinkRoute,
  acceptInvite: acceptInviteRoute,
  me: meRoute,
  providerCheck: providerCheckRoute,
  grants: consoleGrantsRoute,
});
