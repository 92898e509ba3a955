import { randomBytes } from 'node:crypto';

/** DESIGN decision 5: `whsec_` + base64 of 32 random bytes, the form every Standard Webhooks verifier reads. */
export function mintWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Enough to tell two secrets apart in a list, never enough to sign with. */
export function secretHint(secret: string): string {
  return `whsec_••••${secret.slice(-4)}`;
}
