import type { PortalActionName } from '@/components/portal/portal-actions';
import type { Services } from '@/server/api/context';
import { errors } from '@/server/lib/errors';
import { publicCallerOf, statusOf } from '@/web/trpc/public-caller';

/** One action's request as the custom server hands it over (server/http/portal-actions.ts checked origin and body). */
export interface PortalActionCall {
  embedKey: string;
  input: Record<string, unknown>;
  clientIp: string;
  /** The session token from the portal's cookie, if any. */
  token: string | undefined;
}

/** What an action answers: the body after `ok: true`, and the session token to keep (a string) or forget (null). */
export interface PortalActionAnswer {
  body: object;
  session?: string | null;
}

type Action = (call: PortalActionCall) => Promise<PortalActionAnswer>;

/**
 * The patient portal's writes (DESIGN decisions 39, 40), run in this process through the same procedures,
 * limits and errors as /v1: sign-in (the session token goes into the HttpOnly cookie, never to the page), sign-out,
 * and the signed-in patient's shipping address and notice choices. The embed key is the address's alone, so a
 * body cannot sign in to another clinic's portal; the procedures' strict schemas refuse any other field. A
 * failure is thrown as the procedure threw it: the app answers the spec's envelope.
 */
export function createPortalActions(services: Services) {
  const caller = (call: PortalActionCall, bearer?: string) => publicCallerOf(services, call.clientIp, bearer);
  /** The public sign-in procedures' input: the body with the key of the portal's address (a body naming one is refused). */
  const withKey = (call: PortalActionCall) => {
    if ('embedKey' in call.input) throw errors.validation('The embed key is the portal’s address; the body must not name one.', 'embedKey');
    return { ...call.input, embedKey: call.embedKey } as never;
  };
  const signedIn = (call: PortalActionCall) => {
    if (!call.token) throw errors.unauthenticated('Your sign-in has ended. Sign in again to continue.', 'invalid_patient_session');
    return caller(call, call.token);
  };

  const actions: Record<PortalActionName, Action> = {
    // Step 1 of sign-in: the same answer whether or not the clinic has this patient.
    'request-code': async (call) => ({ body: await caller(call).publicPatients.requestPatientLogin(withKey(call)) }),
    'verify-code': async (call) => ({ body: {}, session: (await caller(call).publicPatients.verifyPatientLogin(withKey(call))).token }),
    // The mail's one-click link: the same exchange with the link's token, once the page runs in the patient's browser.
    'verify-link': async (call) => ({ body: {}, session: (await caller(call).publicPatients.verifyPatientLoginLink(withKey(call))).token }),
    // Ends the session on the server (one already ended is fine) and forgets the cookie; any other failure is
    // answered as it is, with the cookie kept, since the session it names still lives.
    'sign-out': async (call) => {
      if (call.token) {
        try {
          await caller(call, call.token).patient.patientLogout({});
        } catch (err) {
          if (statusOf(err) !== 401) throw err;
        }
      }
      return { body: {}, session: null };
    },
    shipping: async (call) => ({ body: { order: await signedIn(call).patient.updatePatientOrderShipping(call.input as never) } }),
    notifications: async (call) => ({ body: { notifications: await signedIn(call).patient.updatePatientNotifications(call.input as never) } }),
  };

  return {
    /** Runs the named action; null when there is no action of that name (the app's 404). */
    act(name: string, call: PortalActionCall): Promise<PortalActionAnswer> | null {
      return Object.hasOwn(actions, name) ? actions[name as PortalActionName](call) : null;
    },
  };
}
