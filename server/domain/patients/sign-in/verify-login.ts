import { eq, gt, inArray, isNotNull, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { patientLoginChallenges } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { AuthDeps } from '@/server/domain/auth/deps';
import { now } from '@/server/lib/clock';
import { safeEqual } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import type { PortalKey } from '../portal-key';
import { codeHashOf, emailKeyOf, parseLinkToken } from './login-secrets';
import { startPatientSession } from './patient-sessions';

/** A code may be tried 5 times; the fifth wrong try spends it. */
export const LOGIN_CODE_TRIES = 5;

type Deps = Pick<AuthDeps, 'db' | 'secret' | 'limits'>;
type Challenge = typeof patientLoginChallenges.$inferSelect;

/** One answer for every refusal: a wrong, spent, expired or used code, an unknown e-mail, another clinic's key. */
const invalidCode = () => errors.unauthenticated('This code is not valid, has expired or was already used. Check it, or ask for a new one.', 'invalid_code');

/**
 * Takes one try from each open challenge that `which` selects (mailed, unused, unexpired, under 5 tries), in one
 * UPDATE, and returns them: a code is compared only against challenges whose try it has already spent, so
 * concurrent guesses can never compare more than 5 times against one code.
 */
async function claimTries(deps: Deps, scope: Scope, which: SQL) {
  const at = now();
  return deps.db
    .update(patientLoginChallenges)
    .set({ attempts: sql`${patientLoginChallenges.attempts} + 1` })
    .where(
      scoped(deps.db, scope).where(
        patientLoginChallenges,
        which,
        isNotNull(patientLoginChallenges.codeHash),
        isNull(patientLoginChallenges.usedAt),
        gt(patientLoginChallenges.expiresAt, at),
        lt(patientLoginChallenges.attempts, LOGIN_CODE_TRIES),
      ),
    )
    .returning();
}

const matching = (deps: Deps, claimed: Challenge[], code: string) => claimed.find((c) => c.patientId && safeEqual(c.codeHash ?? '', codeHashOf(deps.secret, c.id, code)));

/**
 * The challenge is used, with every other open one of the same e-mail (a second mail's code is no longer needed),
 * and the session starts: in one transaction, and only if this call is the one that marked it used.
 */
async function signIn(deps: Deps, scope: Scope, hit: Challenge) {
  return deps.db.transaction(async (tx) => {
    const used = await tx
      .update(patientLoginChallenges)
      .set({ usedAt: now() })
      .where(scoped(tx, scope).where(patientLoginChallenges, eq(patientLoginChallenges.emailKey, hit.emailKey), isNull(patientLoginChallenges.usedAt)))
      .returning({ id: patientLoginChallenges.id });
    if (!used.some((u) => u.id === hit.id)) throw invalidCode();
    return startPatientSession(tx, scope, hit.patientId!);
  });
}

/** `POST /v1/public/patients/{embedKey}/login/verify {email, code}` → a patient session, or 401 `invalid_code`. */
export async function verifyPatientCode(deps: Deps, key: PortalKey | null, input: { email: string; code: string }, address: string) {
  const emailKey = emailKeyOf(deps.secret, input.email);
  await deps.limits.patientLogin.consume('verify', emailKey, address);
  if (!key) throw invalidCode();
  const scope = { tenantId: key.tenantId, livemode: key.livemode };
  const hit = matching(deps, await claimTries(deps, scope, eq(patientLoginChallenges.emailKey, emailKey)), input.code);
  if (!hit) throw invalidCode();
  return signIn(deps, scope, hit);
}

/** `POST /v1/public/patients/{embedKey}/login/verify-link {token}`: the mail's one-click link, under the same code's tries. */
export async function verifyPatientLink(deps: Deps, key: PortalKey | null, token: string, address: string) {
  await deps.limits.patientLogin.consume('verify', null, address);
  const parsed = parseLinkToken(token);
  if (!key || !parsed) throw invalidCode();
  const scope = { tenantId: key.tenantId, livemode: key.livemode };
  const hit = matching(deps, await claimTries(deps, scope, inArray(patientLoginChallenges.id, [parsed.challengeId])), parsed.code);
  if (!hit) throw invalidCode();
  return signIn(deps, scope, hit);
}
