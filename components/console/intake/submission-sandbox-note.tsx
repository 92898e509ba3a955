import type { ConsoleSubmission } from './intake-submission-types';

/**
 * What a sandbox submission is, said plainly above the person (issue 50 item 5; DESIGN decision 32: sandbox
 * always uses synthetic patients). A public path (a flow, public intake) never keeps who a tester said they
 * were: the patient shown is a generated person in the state the tester chose, while the answers, and the
 * verdict the engine reached from them, are what the tester typed. A hosted link or the API names a sandbox
 * patient, also synthetic. Nothing is shown in live mode.
 */
export function SandboxSubmissionNote({ s }: { s: Pick<ConsoleSubmission, 'livemode' | 'source'> }) {
  if (s.livemode) return null;
  const typed = s.source !== 'in_app';
  return (
    <section aria-labelledby="sandbox-note-heading" data-testid="sandbox-submission-note" className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <h2 id="sandbox-note-heading" className="font-semibold">Sandbox: test data, not a real patient</h2>
      {s.source === 'flow' || s.source === 'public' ? (
        <p data-testid="sandbox-person-words">
          The patient shown is a synthetic person standing in for whoever tested the form: their name, date of birth, sex and e-mail were generated, not
          taken from what the tester typed. Only the state the tester chose was given to them.
        </p>
      ) : (
        <p data-testid="sandbox-person-words">The patient shown is a synthetic sandbox patient standing in for a real one; no real person is behind this record.</p>
      )}
      <p data-testid="sandbox-answers-words">
        {typed
          ? 'The answers are exactly what the tester typed, and the verdict and rules matched come from those answers (the typed date of birth included), not from the synthetic person.'
          : 'The answers are exactly what was sent through the API, and the verdict and rules matched come from those answers.'}
      </p>
    </section>
  );
}
