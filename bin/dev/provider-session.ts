import { authenticator } from 'otplib';
import { FulfillmentRail, FulfillmentRailError } from '@/sdk/src/index';
import { UsageError } from '../cli-command';

export interface ProviderCredentials {
  email?: string;
  password?: string;
  /**
   * The TOTP secret of an enrolled provider (what an authenticator app holds): base32 as the console's Account page
   * shows it while enrolling (any case, spaces allowed), or the otpauth:// URI its QR code holds.
   */
  totpSecret?: string;
}

/**
 * The base32 secret in what the developer pasted: the secret as the console shows it (letter case and spaces do not
 * matter), or the whole `otpauth://totp/…?secret=…` URI a QR reader gives. Anything else is refused here, before a
 * sign-in attempt spends one of the account's few code tries.
 */
export function totpSecretOf(given: string): string {
  let raw = given.trim();
  if (/^otpauth:/i.test(raw)) {
    let secret: string | null = null;
    try {
      secret = new URL(raw).searchParams.get('secret');
    } catch {
      // reported below
    }
    if (!secret) throw new UsageError('--provider-totp-secret: that otpauth:// URI carries no secret= parameter.');
    raw = secret;
  }
  const secret = raw.replace(/[\s-]/g, '').replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]{16,}$/.test(secret)) {
    throw new UsageError(
      '--provider-totp-secret: not a TOTP secret. Give the base32 secret (letters A–Z and digits 2–7) the Account page showed beside the QR code while enrolling, or the otpauth:// URI of that QR code.',
    );
  }
  return secret;
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

/** Refuses, before anything is created, a trigger that will need a provider but was given none. */
export function requireProviderCredentials(creds: ProviderCredentials): asserts creds is ProviderCredentials & { email: string; password: string } {
  if (!creds.email || !creds.password) throw new UsageError(NEEDED);
  if (creds.totpSecret) totpSecretOf(creds.totpSecret);
}

/**
 * A provider's session token, signed in as the console does: e-mail and password, then a TOTP code. A provider
 * who has not enrolled two-factor authentication yet is enrolled here, and the secret is printed once (add it
 * to an authenticator app; pass it as --provider-totp-secret from then on), as the Account page would show it.
 */
export async function providerSession(baseUrl: string, creds: ProviderCredentials, print: (line: string) => void): Promise<FulfillmentRail> {
  requireProviderCredentials(creds);
  const anonymous = new FulfillmentRail(null, { baseUrl });
  const login = await anonymous.post('/auth/login', { body: { email: creds.email, password: creds.password } });
  if ('mfaRequired' in login) {
    if (!creds.totpSecret) {
      throw new UsageError(
        `${creds.email} has two-factor authentication: give its TOTP secret with --provider-totp-secret (or FR_PROVIDER_TOTP_SECRET). ` +
          'Enrolled in the console: the secret the Account page showed beside the QR code (or the QR code\'s otpauth:// URI); enrolled by trigger: the secret it printed.',
      );
    }
    const secret = totpSecretOf(creds.totpSecret);
    // The code of this step may already be spent (a trigger a moment ago): the next step's is accepted too.
    for (let tries = 0; ; tries++) {
      try {
        const session = await anonymous.post('/auth/mfa/verify', { body: { mfaToken: login.mfaToken, code: await nextCode(secret) } });
        if (!('accessToken' in session)) throw new Error('sign-in did not return a session');
        return new FulfillmentRail(session.accessToken, { baseUrl });
      } catch (err) {
        if (err instanceof FulfillmentRailError && err.statusCode === 429) {
          const wait = err.headers.get('retry-after');
          throw new UsageError(
            `Too many two-factor codes for ${creds.email} lately: the service takes 5 per account in 5 minutes, and each trigger that signs in spends one (two when a code of the current 30 s was just used). ` +
              `Try again${wait ? ` in ${wait} s` : ' in a few minutes'}.`,
          );
        }
        if (!(err instanceof FulfillmentRailError) || err.statusCode !== 401) throw err;
        if (tries >= 2) {
          throw new UsageError(
            `${creds.email} refused the TOTP codes of that secret: it is not the secret of their current enrolment (the one shown while enrolling, in the console or by trigger). ${err.code}: ${err.message}`,
          );
        }
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
