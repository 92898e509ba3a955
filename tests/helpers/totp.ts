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
