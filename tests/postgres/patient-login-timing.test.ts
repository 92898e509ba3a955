import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, startTestApp, type TestApp } from '../helpers/harness';
import { anyAddress, PORTAL_ORIGIN, portalKey, portalPatient, requestLogin } from '../helpers/portal-world';

/*
 * DESIGN decision 39: a sign-in request must not tell, by how long it takes, whether a chart exists. 200 requests
 * for existing patients and 200 for addresses no one has, interleaved (existing first on even rounds, missing
 * first on odd ones, so drift and warm caches fall on both alike), each from its own client address; the medians
 * must lie within 10% of each other. The worker is off: what is measured is the request, which is all a caller
 * can time (the mail is the worker's, after the answer).
 *
 * Why PostgreSQL only (tests/postgres/): a median of 200 is steady there; on the embedded database every
 * statement shares one in-process connection with whatever else the process does, which adds noise unrelated to
 * a match. Why a second round on failure: a 2-core machine shared with other runs can stall one phase of a run
 * (a GC, a checkpoint, another process); a real difference shows in both rounds, a stall does not. The rule
 * itself stays 10%: measured on the project's machine, both medians were about 15 ms, 4% apart.
 */

const ROUNDS = 200;
// The per-e-mail limit is 5 requests in 15 minutes: 40 addresses of each kind, 5 requests each, make the 200.
const PER_EMAIL = 5;
const EMAILS = ROUNDS / PER_EMAIL;

let app: TestApp;
let embedKey: string;
let clinicKey: string;
let batch = 0;

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};

async function timed(email: string, dateOfBirth: string): Promise<number> {
  const start = performance.now();
  const res = await requestLogin(app, embedKey, { email, dateOfBirth }, { origin: PORTAL_ORIGIN, 'x-forwarded-for': anyAddress() });
  const ms = performance.now() - start;
  expect(res.status, res.text).toBe(202);
  return ms;
}

/** One measurement: fresh e-mails (the per-e-mail limit), a short warm-up, then the 200 interleaved pairs. */
async function measure() {
  batch += 1;
  const existing = [];
  for (let i = 0; i < EMAILS + 2; i++) existing.push(await portalPatient(app, clinicKey, { email: `timing.${batch}.${i}@patients.example`, dateOfBirth: '1975-06-15' }));
  const missing = Array.from({ length: EMAILS + 2 }, (_, i) => ({ email: `nobody.${batch}.${i}@patients.example`, dateOfBirth: '1975-06-15' }));
  // Warm-up on the two spare addresses of each kind: statements prepared, connections open.
  for (const p of [...existing.slice(EMAILS), ...missing.slice(EMAILS)]) for (let i = 0; i < PER_EMAIL; i++) await timed(p.email, p.dateOfBirth);
  const found: number[] = [];
  const notFound: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const hit = existing[i % EMAILS];
    const miss = missing[i % EMAILS];
    if (i % 2 === 0) {
      found.push(await timed(hit.email, hit.dateOfBirth));
      notFound.push(await timed(miss.email, miss.dateOfBirth));
    } else {
      notFound.push(await timed(miss.email, miss.dateOfBirth));
      found.push(await timed(hit.email, hit.dateOfBirth));
    }
  }
  const [a, b] = [median(found), median(notFound)];
  return { found: a, notFound: b, ratio: Math.abs(a - b) / Math.min(a, b) };
}

beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: 'loopback' });
  const clinic = await createTenantWithKeys(app, 'Timing Clinic');
  clinicKey = clinic.liveKey;
  embedKey = await portalKey(app, clinic.liveKey);
});
afterAll(async () => app?.close());

describe('patient sign-in timing', () => {
  it('takes as long for a patient who exists as for one who does not (medians within 10%)', async () => {
    let result = await measure();
    if (result.ratio > 0.1) result = await measure();
    expect(result.ratio, `medians: existing ${result.found.toFixed(3)} ms, missing ${result.notFound.toFixed(3)} ms`).toBeLessThanOrEqual(0.1);
  }, 180_000);
});
