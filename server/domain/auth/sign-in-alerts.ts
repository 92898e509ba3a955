import { logger } from '@/server/lib/logger';
import type { AuthDeps } from './deps';
import { FREE_ACCOUNT_FAILURES } from './login-limits';
import type { UserRow } from './users';

/**
 * Tells the owner that someone keeps trying wrong passwords on their account. Not awaited: the failed sign-in
 * answers as fast for an account that exists as for one that does not, and a mail outage never fails it.
 */
export function alertRepeatedFailures(deps: AuthDeps, user: UserRow): void {
  const text = [
    `There have been ${FREE_ACCOUNT_FAILURES} or more sign-in attempts with a wrong password on your Fulfillment Rail account within the last hour.`,
    '',
    'If this was you, there is nothing to do. Networks you have signed in from before are not slowed down; from others, sign-ins are spaced out (at most a minute apart) while the attempts go on, and a sign-in link by e-mail still works.',
    '',
    'If it was not you, someone may be guessing your password: change it if it is used anywhere else, keep two-factor authentication on, and tell your administrator.',
    '',
    'You will get at most one of these messages an hour.',
  ].join('\n');
  deps.mailer
    .send({ to: user.email, subject: 'Failed sign-in attempts on your Fulfillment Rail account', text })
    // The error may quote the address; the user id is enough to follow up.
    .catch((err: { code?: unknown }) => logger.warn({ userId: user.id, code: err?.code }, 'the failed sign-in alert could not be sent'));
}
