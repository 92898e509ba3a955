import { authenticator } from 'otplib';

const STEP_MS = 30_000;
const lastStep = new Map<string, number>();

/**
 * A code the server has not accepted yet. Codes are single-use (RFC 6238 §5.2), so a second use of the same
 * secret within one 30 s step takes the next step's code (the server accepts one step ahead) or, when that
 * is spent too, waits for the clock to reach a new step.
 */
export async function freshTotp(secret: string): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(current, (lastStep.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      lastStep.set(secret, step);
      return authenticator.clone({ epoch: step * STEP_MS }).generate(secret);
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - Date.now() + 100));
  }
}

/**
 * A six-digit code certain to be wrong for `secret` right now: none of the codes of the steps around the
 * current one (the server accepts one step either side). A fixed "wrong" code such as 000000 is right for
 * about one secret in 300,000 at any moment, and a CI run met that once.
 */
export function wrongTotp(secret: string): string {
  const current = Math.floor(Date.now() / STEP_MS);
  const near = new Set(Array.from({ length: 5 }, (_, i) => authenticator.clone({ epoch: (current - 2 + i) * STEP_MS }).generate(secret)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}
