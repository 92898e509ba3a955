import 'server-only';
import { cache } from 'react';
import type { RouterOutputs } from '@/web/console/types';
import { publicCaller, statusOf } from '@/web/trpc/public-server';
import { readPatientToken } from './session-cookie';

export type PortalInfo = RouterOutputs['publicPatients']['getPatientPortal'];

/** The portal's key as `GET /v1/public/patients/{embedKey}/portal` answers it; null for an unknown or revoked key (the page is a 404). */
export const loadPortal = cache(async (embedKey: string): Promise<PortalInfo | null> => {
  try {
    return await (await publicCaller()).publicPatients.getPatientPortal({ embedKey });
  } catch (err) {
    if ([400, 404].includes(statusOf(err))) return null;
    throw err;
  }
});

/**
 * Calls the patient endpoints with the session in the request's cookie. `null` when there is no session or it
 * has ended (401): the page then asks the patient to sign in. Each call is the patient's own read, logged.
 */
async function asPatient<T>(read: (caller: Awaited<ReturnType<typeof publicCaller>>) => Promise<T>): Promise<T | null> {
  const token = await readPatientToken();
  if (!token) return null;
  try {
    return await read(await publicCaller(token));
  } catch (err) {
    if (statusOf(err) === 401) return null;
    throw err;
  }
}

export type PatientHome = {
  profile: RouterOutputs['patient']['getPatientProfile'];
  orders: RouterOutputs['patient']['listPatientOrders'];
  submissions: RouterOutputs['patient']['listPatientSubmissions'];
};

/** What the portal's first page shows a signed-in patient. */
export const loadPatientHome = (): Promise<PatientHome | null> =>
  asPatient(async (caller) => {
    const profile = await caller.patient.getPatientProfile({});
    const orders = await caller.patient.listPatientOrders({});
    const submissions = await caller.patient.listPatientSubmissions({});
    return { profile, orders, submissions };
  });

export type PatientOrder = RouterOutputs['patient']['getPatientOrder'];

/** One order of the signed-in patient; `missing` when it is not theirs (404), null when signed out. */
export const loadPatientOrder = (id: string): Promise<PatientOrder | 'missing' | null> =>
  asPatient(async (caller) => {
    try {
      return await caller.patient.getPatientOrder({ id });
    } catch (err) {
      if ([400, 404].includes(statusOf(err))) return 'missing' as const;
      throw err;
    }
  });

/** The signed-in patient's own record (the order page's shipping form starts from its phone). */
export const loadPatientProfile = () => asPatient((caller) => caller.patient.getPatientProfile({}));
