import type { RouterInputs, RouterOutputs } from '@/web/console/types';
import { portalPath } from './portal-ui';

/**
 * The portal's writes as the browser sends them (DESIGN decisions 39, 40): a same-origin JSON POST to
 * `/p/{embedKey}/actions/{name}` (server/http/portal-actions.ts, app/_patient-pages/portal-actions.ts), which runs
 * the same procedures as /v1 in the server and keeps the session token in the HttpOnly cookie; the page's script
 * never holds it. The cookie's path is the portal's, so only these addresses receive it. A refusal comes as the
 * spec's error envelope, which this turns into the plain result the page shows: its patient-safe message and the
 * field it names. Plain `fetch`, so the pages carry no framework's client runtime (docs/decisions/flows.md, "The
 * patient pages' weight").
 */
export type ActionResult<T = object> = ({ ok: true } & T) | { ok: false; status: number; code: string; message: string; field: string | null };

/** The actions by name, each with what it takes and what it answers on success. */
export interface PortalActions {
  'request-code': { input: { email: string; dateOfBirth: string }; output: object };
  'verify-code': { input: { email: string; code: string }; output: object };
  'verify-link': { input: { token: string }; output: object };
  'sign-out': { input: object; output: object };
  shipping: { input: RouterInputs['patient']['updatePatientOrderShipping']; output: { order: RouterOutputs['patient']['updatePatientOrderShipping'] } };
  notifications: { input: RouterInputs['patient']['updatePatientNotifications']; output: { notifications: RouterOutputs['patient']['updatePatientNotifications'] } };
}
export type PortalActionName = keyof PortalActions;

const unreachable: ActionResult<never> = {
  ok: false,
  status: 0,
  code: 'network_error',
  message: 'We could not reach your clinic’s portal. Check your connection and try again.',
  field: null,
};

export async function portalAction<N extends PortalActionName>(embedKey: string, name: N, input: PortalActions[N]['input']): Promise<ActionResult<PortalActions[N]['output']>> {
  try {
    const res = await fetch(`${portalPath(embedKey)}/actions/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(input),
    });
    const body = await res.json();
    if (res.ok) return body as ActionResult<PortalActions[N]['output']>;
    // The spec's envelope: its message is written for the person who sent the request; a server fault's is not shown.
    const error = (body as { error?: { code?: string; message?: string; param?: string } }).error ?? {};
    const message = res.status >= 500 || !error.message ? 'Something went wrong on our side. Please try again in a moment.' : error.message;
    return { ok: false, status: res.status, code: error.code ?? 'error', message, field: error.param ?? null };
  } catch {
    return unreachable;
  }
}
