/**
 * What survives a refresh: the session id and the step the patient was on, per embed key, in localStorage.
 * Never an answer, a name or an e-mail: those stay on the server, which gives them back to the session itself
 * for a while (DESIGN decision 44), and in the page's memory.
 * Storage can be unavailable (private modes, blocked third-party storage in a frame): the flow then simply
 * starts over after a refresh.
 */
export interface ResumePoint {
  sessionId: string;
  stepId: string | null;
}

const keyFor = (embedKey: string) => `fulfillmentrail:flow:${embedKey}`;
const SESSION_ID = /^fs_[A-Za-z0-9_-]{8,80}$/;

export function loadResume(embedKey: string): ResumePoint | null {
  try {
    const raw = window.localStorage.getItem(keyFor(embedKey));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<ResumePoint>;
    if (typeof parsed.sessionId !== 'string' || !SESSION_ID.test(parsed.sessionId)) return null;
    return { sessionId: parsed.sessionId, stepId: typeof parsed.stepId === 'string' ? parsed.stepId : null };
  } catch {
    return null;
  }
}

export function saveResume(embedKey: string, point: ResumePoint): void {
  try {
    window.localStorage.setItem(keyFor(embedKey), JSON.stringify({ sessionId: point.sessionId, stepId: point.stepId }));
  } catch {
    // Without storage the flow still works; it just cannot resume.
  }
}

export function clearResume(embedKey: string): void {
  try {
    window.localStorage.removeItem(keyFor(embedKey));
  } catch {
    // Nothing stored, nothing to clear.
  }
}
