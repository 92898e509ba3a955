import { authenticator } from 'otplib';
import { FulfillmentRail, type FulfillmentRailError } from '@/sdk/src/index';
import { UsageError } from '../commands';

export interface ProviderCredentials {
  email?: string;
  password?: string;
  /** The base32 TOTP secret of an enrolled provider (what an authenticator app holds). */
  totpSecret?: string;
}

const STEP_MS = 30_000;
// Codes are single-use (the server refuses a code twice): within one process, each sign-in takes a later step.
const usedStep = new Map<string, number>();

/** The next code of `secret` the server has not seen from this process, waiting for a new 30 s step if need be. */
async function nextCode(secret: string): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(current, (usedStep.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      usedStep.set(secret, step);
      return authenticator.clone({ epoch: step * STEP_MS }).generate(secret);
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - Date.now() + 100));
  }
}

const NEEDED =
  'Approving an order takes a licensed provider signed in with two-factor authentication (no API key can approve: SPEC). ' +
  'Give --provider-email and --provider-password (or FR_PROVIDER_EMAIL / FR_PROVIDER_PASSWORD): on a fresh `npm start`, the demo provider printed at the first start.';

/**
 * A provider's session token, signed in as the console does: e-mail and password, then a TOTP code. A provider
 * who has not enrolled two-factor authentication yet is enrolled here, and the secret is printed once (add it
 * to an authenticator app; pass it as --provider-totp-secret from then on), as the Account page would show it.
 */
/** Refuses, before anything is created, a trigger that will need a provider but was given none. */
export function requireProviderCredentials(creds: ProviderCredentials): asserts creds is ProviderCredentials & { email: string; password: string } {
  if (!creds.email || !creds.password) throw new UsageError(NEEDED);
}

export async function providerSession(baseUrl: string, creds: ProviderCredentials, print: (line: string) => void): Promise<FulfillmentRail> {
  requireProviderCredentials(creds);
  const anonymous = new FulfillmentRail(null, { baseUrl });
  const login = await anonymous.post('/auth/login', { body: { email: creds.email, password: creds.password } });
  if ('mfaRequired' in login) {
    if (!creds.totpSecret) {
      throw new UsageError(`${creds.email} has two-factor authentication: give its TOTP secret with --provider-totp-secret (or FR_PROVIDER_TOTP_SECRET).`);
    }
    // The code of this step may already be spent (a trigger a moment ago): the next step's is accepted too.
    for (let tries = 0; ; tries++) {
      try {
        const session = await anonymous.post('/auth/mfa/verify', { body: { mfaToken: login.mfaToken, code: await nextCode(creds.totpSecret) } });
        if (!('accessToken' in session)) throw new Error('sign-in did not return a session');
        return new FulfillmentRail(session.accessToken, { baseUrl });
      } catch (err) {
        if (tries >= 2 || (err as FulfillmentRailError).statusCode === undefined || (err as FulfillmentRailError).statusCode >= 500) throw err;
      }
    }
  }
  const session = new FulfillmentRail(login.accessToken, { baseUrl });
  const enrolled = await session.post('/auth/mfa/enroll', { body: {} });
  if (!enrolled.secret) throw new Error('two-factor enrolment returned no secret');
  await session.post('/auth/mfa/verify', { body: { code: await nextCode(enrolled.secret) } });
  print(
    `Enrolled two-factor authentication for ${creds.email}. Its TOTP secret (shown once): ${enrolled.secret}\n` +
      `  Add it to an authenticator app to sign in to the console, and pass --provider-totp-secret ${enrolled.secret} to trigger from now on.`,
  );
  return session;
}
