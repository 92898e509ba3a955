import type { ApiProblem } from './flow-progress';
import type { ContactAnswers, CreatedSession, SessionState, SubmitResult } from './types';

/** A refused call: status (0 when the network failed), the envelope's code and every `param` it names. */
export class FlowApiError extends Error implements ApiProblem {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly params: string[],
  ) {
    super(`flow API ${status}${code ? ` ${code}` : ''}`);
  }
}

interface Envelope {
  error?: { code?: string; param?: string; details?: { param?: string }[] | Record<string, unknown> };
}

async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      // A same-origin GET carries no Origin header: the Referer (this page) is how a live key knows the caller is the service itself.
      referrerPolicy: 'same-origin',
    });
  } catch {
    throw new FlowApiError(0, undefined, []);
  }
  const parsed = (await res.json().catch(() => ({}))) as Envelope & T;
  if (res.ok) return parsed;
  const err = parsed.error ?? {};
  const details = Array.isArray(err.details) ? err.details.map((d) => d.param) : [];
  throw new FlowApiError(res.status, err.code, [err.param, ...details].filter((p): p is string => typeof p === 'string'));
}

export type Beacon = 'view' | 'step_viewed' | 'step_completed';

/** The public runtime of one embed key, same origin, no credentials (`/v1/public/flows/{embedKey}/…`). */
export function flowApi(embedKey: string) {
  const base = `/v1/public/flows/${encodeURIComponent(embedKey)}`;
  const session = (id: string) => `${base}/sessions/${encodeURIComponent(id)}`;
  return {
    createSession: (body: { campaign?: string; variant?: string }) => call<CreatedSession>('POST', `${base}/sessions`, body),
    getSession: (id: string) => call<SessionState>('GET', session(id)),
    saveStep: (id: string, stepId: string, answers: Record<string, unknown>) => call<{ ok: true; nextStepId: string | null }>('POST', `${session(id)}/steps`, { stepId, answers }),
    submit: (id: string, patient: Pick<ContactAnswers, 'name' | 'email'>, idempotencyKey: string) =>
      call<SubmitResult>('POST', `${session(id)}/submit`, { patient }, { 'idempotency-key': idempotencyKey }),
    /** Analytics beacons: counted once per session (and step) by the server, so a lost one is simply resent; never awaited. */
    beacon(id: string, type: Beacon, stepId?: string) {
      void fetch(`${session(id)}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(stepId ? { type, stepId } : { type }),
        credentials: 'omit',
        keepalive: true,
      }).catch(() => undefined);
    },
  };
}

