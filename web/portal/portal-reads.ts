import { statusOf, type publicCallerOf } from '@/web/trpc/public-caller';

type Caller = ReturnType<typeof publicCallerOf>;

/**
 * What the portal's pages read (DESIGN decisions 39, 40), through the same procedures as /v1: `callerFor(bearer)`
 * is the in-process caller with the patient's address (and session token, when signed in). Whoever renders the
 * page supplies it: the custom server (app/_patient-pages/) or Next.js (load-portal.ts).
 */
export function portalReads(callerFor: (bearer?: string) => Caller | Promise<Caller>, token: string | undefined) {
  /**
   * Calls the patient endpoints with the session; `null` when there is none or it has ended (401): the page then
   * asks the patient to sign in. Each call is the patient's own read, logged.
   */
  async function asPatient<T>(read: (caller: Caller) => Promise<T>): Promise<T | null> {
    if (!token) return null;
    try {
      return await read(await callerFor(token));
    } catch (err) {
      if (statusOf(err) === 401) return null;
      throw err;
    }
  }

  return {
    /** The portal's key as `GET /v1/public/patients/{embedKey}/portal` answers it; null for an unknown or revoked key (the page is a 404). */
    async portal(embedKey: string) {
      try {
        return await (await callerFor()).publicPatients.getPatientPortal({ embedKey });
      } catch (err) {
        if ([400, 404].includes(statusOf(err))) return null;
        throw err;
      }
    },
    /** What the portal's first page shows a signed-in patient. */
    home: () =>
      asPatient(async (caller) => {
        const profile = await caller.patient.getPatientProfile({});
        const orders = await caller.patient.listPatientOrders({});
        const submissions = await caller.patient.listPatientSubmissions({});
        return { profile, orders, submissions };
      }),
    /** One order of the signed-in patient; `missing` when it is not theirs (404), null when signed out. */
    order: (id: string) =>
      asPatient(async (caller) => {
        try {
          return await caller.patient.getPatientOrder({ id });
        } catch (err) {
          if ([400, 404].includes(statusOf(err))) return 'missing' as const;
          throw err;
        }
      }),
    /** The signed-in patient's own record (the order page's shipping form starts from its phone). */
    profile: () => asPatient((caller) => caller.patient.getPatientProfile({})),
  };
}
