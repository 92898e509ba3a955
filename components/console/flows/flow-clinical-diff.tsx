import type { ClinicalStepShape, FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { FieldDiff } from '../ui/word-diff';
import { contactStepSummary, isClinical, KIND_LABEL } from './flow-steps';
import type { DraftDocument, FlowVersionSummary, PendingClinicalChanges } from './flow-types';

/** Everything a provider approves of one clinical step, as text they can read side by side. */
function ClinicalStepText({ step }: { step: ClinicalStepShape }) {
  return (
    <div className="min-w-0 space-y-1 text-sm">
      <p className="font-medium text-slate-900">
        {KIND_LABEL[step.kind]}: {step.title}
      </p>
      {step.kind === 'medical' && <p className="break-words text-slate-700">Items: {step.linkIds.join(', ') || 'none'}</p>}
      {step.kind === 'consent' && (
        <>
          <p className="text-slate-700">Version {step.version}</p>
          <p className="break-words whitespace-pre-line text-slate-700">{step.text}</p>
        </>
      )}
      {step.kind === 'contact' && <p className="text-slate-700">Asks: {contactStepSummary()}</p>}
    </div>
  );
}

/** The fields of a clinical step a provider approves, as text: what the word diff compares. */
function stepFields(step: ClinicalStepShape | undefined): { label: string; text: string }[] {
  if (!step) return [];
  const fields = [{ label: 'Title', text: step.title }];
  if (step.kind === 'medical') fields.push({ label: 'Items', text: step.linkIds.join(', ') || 'none' });
  if (step.kind === 'consent') fields.push({ label: 'Version', text: step.version }, { label: 'Text', text: step.text });
  return fields;
}

/** A changed step word by word: each field of the live version against the pending one. */
function ClinicalStepDiff({ before, after }: { before: ClinicalStepShape; after: ClinicalStepShape }) {
  const old = new Map(stepFields(before).map((f) => [f.label, f.text]));
  return (
    <div className="min-w-0 space-y-1 text-sm text-slate-800">
      <p className="text-xs text-slate-600">
        {KIND_LABEL[after.kind]} step, live → pending: removed words struck through, added words underlined.
      </p>
      {stepFields(after).map((f) => (
        <FieldDiff key={f.label} label={f.label} before={old.get(f.label) ?? ''} after={f.text} />
      ))}
    </div>
  );
}

const clinicalById = (doc: DraftDocument | undefined, id: string) => doc?.steps.find((s: FlowStepShape): s is ClinicalStepShape => s.id === id && isClinical(s));

/**
 * What a provider is asked to approve: the clinical steps added and removed, each with its full text, the
 * ones changed word by word against the live version, and whether the questionnaire version moved.
 */
export function FlowClinicalDiff({
  changes,
  pending,
  active,
  pendingDoc,
  activeDoc,
}: {
  changes: PendingClinicalChanges;
  pending: FlowVersionSummary;
  active: FlowVersionSummary | null;
  pendingDoc?: DraftDocument;
  activeDoc?: DraftDocument;
}) {
  const rows = [
    ...changes.added.map((id) => ({ id, change: 'added' as const })),
    ...changes.changed.map((id) => ({ id, change: 'changed' as const })),
    ...changes.removed.map((id) => ({ id, change: 'removed' as const })),
  ];
  return (
    <div className="space-y-3" data-testid="clinical-diff">
      {changes.questionnaireChanged && (
        <p className="text-sm text-slate-800" data-testid="clinical-diff-questionnaire">
          Questionnaire: {active ? `${active.questionnaire.key} v${active.questionnaire.version}` : 'none'} → {pending.questionnaire.key} v{pending.questionnaire.version}
        </p>
      )}
      {rows.length === 0 && !changes.questionnaireChanged && <p className="text-sm text-slate-600">No clinical step differs from the live version.</p>}
      <ul className="space-y-3">
        {rows.map(({ id, change }) => {
          const before = clinicalById(activeDoc, id);
          const after = clinicalById(pendingDoc, id);
          return (
            <li key={`${change}-${id}`} data-testid="clinical-change" className="rounded-md border border-slate-200 p-3">
              <p className="mb-2 text-sm font-semibold text-slate-900">
                Step <code className="font-mono">{id}</code>: {change}
              </p>
              {before && after ? (
                <ClinicalStepDiff before={before} after={after} />
              ) : (
                <div className="grid gap-3 sm:grid-cols-2">
                  <div className="min-w-0 rounded bg-red-50 p-2">
                    <p className="text-xs font-semibold text-red-900 uppercase">Live</p>
                    {before ? <ClinicalStepText step={before} /> : <p className="text-sm text-slate-700">—</p>}
                  </div>
                  <div className="min-w-0 rounded bg-emerald-50 p-2">
                    <p className="text-xs font-semibold text-emerald-900 uppercase">Pending</p>
                    {after ? <ClinicalStepText step={after} /> : <p className="text-sm text-slate-700">—</p>}
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
