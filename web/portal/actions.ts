'use server';

import { toEnvelope } from '@/server/api/envelope';
import type { RouterInputs, RouterOutputs } from '@/web/console/types';
import { publicCaller } from '@/web/trpc/public-server';
import { forgetPatientToken, keepPatientToken, readPatientToken } from './session-cookie';

/**
 * The patient portal's writes (DESIGN decisions 39, 40), as Next.js server actions: same-origin POSTs to the
 * portal's own page (Next.js checks the Origin), run in this process through the same procedures as /v1. They are
 * what keeps the session token in the HttpOnly cookie: the browser never holds it in script. Each answers a plain
 * result the page shows: what went wrong is the envelope's patient-safe message and the field it names.
 */

export type ActionResult<T = object> = ({ ok: true } & T) | { ok: false; status: number; code: string; message: string; field: string | null };

function refusal(err: unknown): ActionResult<never> {
  const { status, body } = toEnvelope(err, '');
  // An unexpected failure keeps its details in the server's log; the patient reads a plain sentence.
  const message = status >= 500 ? 'Something went wrong on our side. Please try again in a moment.' : body.error.message;
  return { ok: false, status, code: body.error.code, message, field: body.error.param ?? null };
}

async function run<T extends object>(work: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, ...(await work()) };
  } catch (err) {
    return refusal(err);
  }
}

const signedOut = (): ActionResult<never> => ({ ok: false, status: 401, code: 'invalid_patient_session', message: 'Your sign-in has ended. Sign in again to continue.', field: null });

/** Step 1 of sign-in: the same answer whether or not the clinic has this patient. */
export async function requestSignInCode(embedKey: string, input: { email: string; dateOfBirth: string }) {
  return run(async () => (await publicCaller()).publicPatients.requestPatientLogin({ embedKey, ...input }));
}

/** Step 2: the mailed code; on success the session is kept in the cookie, never handed to the page. */
export async function signInWithCode(embedKey: string, input: { email: string; code: string }) {
  return run(async () => {
    const session = await (await publicCaller()).publicPatients.verifyPatientLogin({ embedKey, ...input });
    await keepPatientToken(embedKey, session.token);
    return {};
  });
}

/** The mail's one-click link: the same exchange, with the link's token. */
export async function signInWithLink(embedKey: string, token: string) {
  return run(async () => {
    const session = await (await publicCaller()).publicPatients.verifyPatientLoginLink({ embedKey, token });
    await keepPatientToken(embedKey, session.token);
    return {};
  });
}

/** Ends the session on the server and forgets the cookie, whatever the session's state. */
export async function signOut(embedKey: string) {
  const token = await readPatientToken();
  const result = token ? await run(async () => (await publicCaller(token)).patient.patientLogout({})) : ({ ok: true } as const);
  await forgetPatientToken(embedKey);
  return result.ok || result.status === 401 ? ({ ok: true } as const) : result;
}

async function asPatient<T extends object>(work: (caller: Awaited<ReturnType<typeof publicCaller>>) => Promise<T>): Promise<ActionResult<T>> {
  const token = await readPatientToken();
  if (!token) return signedOut();
  return run(async () => work(await publicCaller(token)));
}

export async function changeShipping(input: RouterInputs['patient']['updatePatientOrderShipping']) {
  return asPatient(async (caller) => ({ order: await caller.patient.updatePatientOrderShipping(input) }));
}

export async function changeNotifications(input: RouterInputs['patient']['updatePatientNotifications']): Promise<ActionResult<{ notifications: RouterOutputs['patient']['updatePatientNotifications'] }>> {
  return asPatient(async (caller) => ({ notifications: await caller.patient.updatePatientNotifications(input) }));
}
