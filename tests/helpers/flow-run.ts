import { randomUUID } from 'node:crypto';
import type { ApiResponse, TestApp } from './harness';

/** A patient contact that passes the contact step. */
export const CONTACT = { name: 'Ada Lovelace', email: 'ada@example.org', state: 'CA', dateOfBirth: '1980-04-02' };

/** Answers of `weightFlowDocument`'s steps, by step id, for an eligible run; pass overrides per step. */
export function weightRunAnswers(over: Record<string, Record<string, unknown>> = {}): [string, Record<string, unknown>][] {
  const base: Record<string, Record<string, unknown>> = {
    welcome: {},
    goals: { motivation: 'health' },
    body: { dob: '1980-04-02', height: 170, weight: 84 },
    history: { pregnant: false, takesMeds: false, goal: 'lose' },
    consent: { accepted: true, version: '2026-01' },
    contact: CONTACT,
  };
  return Object.entries({ ...base, ...over });
}

/** The public flow endpoints of one embed key, called as a browser on `origin` would. */
export function flowClient(app: TestApp, embedKey: string, origin = 'https://clinic.example') {
  const headers = { origin };
  const base = `/v1/public/flows/${embedKey}`;
  const client = {
    definition: () => app.request('GET', base, { headers }),
    start: (body: Record<string, unknown> = {}) => app.request('POST', `${base}/sessions`, { headers, body }),
    session: (id: string) => app.request('GET', `${base}/sessions/${id}`, { headers }),
    step: (id: string, stepId: string, answers: unknown) => app.request('POST', `${base}/sessions/${id}/steps`, { headers, body: { stepId, answers } }),
    submit: (id: string, patient: unknown = { name: CONTACT.name, email: CONTACT.email }, idempotencyKey: string | null = randomUUID()) =>
      app.request('POST', `${base}/sessions/${id}/submit`, { headers, body: { patient }, idempotencyKey: idempotencyKey ?? undefined }),
    beacon: (id: string, body: Record<string, unknown>) => app.request('POST', `${base}/sessions/${id}/events`, { headers, body }),
    /** A new session; throws unless it was created. */
    async started(): Promise<string> {
      const res = await client.start();
      if (res.status !== 201) throw new Error(`session: ${res.status} ${res.text}`);
      return res.body.sessionId as string;
    },
    /** Saves every step given, in order; throws on the first refusal. */
    async answerAll(id: string, steps: [string, Record<string, unknown>][]): Promise<ApiResponse> {
      let last: ApiResponse | undefined;
      for (const [stepId, answers] of steps) {
        last = await client.step(id, stepId, answers);
        if (last.status !== 200) throw new Error(`step ${stepId}: ${last.status} ${last.text}`);
      }
      return last!;
    },
  };
  return client;
}
