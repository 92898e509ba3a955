/**
 * Approve, submit and review call the pharmacy mid-request, so they cannot share a transaction with their
 * Idempotency-Key claim: a process that dies after their move committed leaves the claim unfinished. The
 * retry that takes the claim over gets a Resumption: the domain looks for what the dead request committed
 * since its claim began, and answers with that (marked as a replay) instead of acting again.
 */
export interface Resumption {
  /** When the claim this request took over began; null when nothing was taken over. */
  since: Date | null;
  /** Tells the transport that the answer is the earlier request's result (`Idempotent-Replayed: true`). */
  replayed(): void;
}

export const NOT_RESUMING: Resumption = { since: null, replayed: () => undefined };

/** The committed result `find` sees since the taken-over claim began, else what `run` does. */
export async function resumeOr<T>(resume: Resumption, find: (since: Date) => Promise<T | null>, run: () => Promise<T>): Promise<T> {
  if (resume.since) {
    const found = await find(resume.since);
    if (found) {
      resume.replayed();
      return found;
    }
  }
  return run();
}
