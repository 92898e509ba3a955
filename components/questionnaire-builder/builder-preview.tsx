'use client';

import { useState } from 'react';
import type { QuestionnaireDoc } from '@/components/console/intake/questionnaire-types';
import { QuestionnaireForm } from '@/components/intake/questionnaire-form';
import type { PatientQuestionnaire } from '@/components/intake/types';
import { evaluate, type Evaluation } from '@/server/domain/intake/shared/engine';

/**
 * The questionnaire as a patient answers it: the patients' own form (questions appear as earlier answers
 * enable them, answers are checked the same way), and on "send" the engine's verdict for those answers,
 * computed here with the very code the server decides with. Nothing is sent or saved.
 */

/** What a patient's browser receives of a questionnaire: the items and their display logic, no rules (as the public view). */
function patientView(doc: QuestionnaireDoc): PatientQuestionnaire {
  return {
    key: doc.key,
    title: doc.title,
    ...(doc.description !== undefined && { description: doc.description }),
    items: doc.items.map((i) => ({
      linkId: i.linkId,
      text: i.text,
      type: i.type,
      required: i.required,
      ...(i.help !== undefined && { help: i.help }),
      ...(i.options && { options: i.options }),
      ...(i.min !== undefined && { min: i.min }),
      ...(i.max !== undefined && { max: i.max }),
      ...(i.unit !== undefined && { unit: i.unit }),
      ...(i.enableWhen && { enableWhen: i.enableWhen }),
      ...(i.fact !== undefined && { fact: i.fact }),
    })),
  };
}

const today = () => new Date().toISOString().slice(0, 10);

export function BuilderPreview({ doc }: { doc: QuestionnaireDoc }) {
  const [round, setRound] = useState(0);
  const [result, setResult] = useState<Evaluation | null>(null);
  const messages = (ids: string[]) => doc.rules.filter((r) => ids.includes(r.id)).map((r) => r.patientMessage);

  return (
    <div data-testid="builder-preview" className="space-y-4">
      <p className="text-sm text-slate-600">
        As the patient sees it on the hosted page. Answers stay in this browser; the verdict below is the engine’s, with no rules shown to the patient.
      </p>
      <div className="mx-auto w-full max-w-xl rounded-lg border border-slate-200 bg-white px-4 py-6 shadow-sm">
        <h2 className="mb-4 text-2xl font-semibold break-words text-slate-900">{doc.title}</h2>
        {doc.description && <p className="mb-6 text-base break-words text-slate-700">{doc.description}</p>}
        <QuestionnaireForm
          key={round}
          questionnaire={patientView(doc)}
          submitLabel="See the outcome"
          onSubmit={async (answers) => {
            setResult(evaluate(doc, answers, { asOf: today() }));
            return null;
          }}
        />
      </div>
      <div role="status" data-testid="preview-outcome" className="space-y-2">
        {result && (
          <div className={`rounded-md border px-4 py-3 text-sm ${result.verdict === 'disqualified' ? 'border-red-200 bg-red-50 text-red-900' : 'border-emerald-200 bg-emerald-50 text-emerald-900'}`}>
            {result.verdict === 'disqualified' ? (
              <p className="font-semibold">Disqualified: these answers would not reach a provider.</p>
            ) : result.verdict === 'eligible' ? (
              <p className="font-semibold">
                Eligible: these answers would go to a provider for review{result.flags.length ? `, flagged (${result.flags.join(', ')})` : ''}.
              </p>
            ) : (
              <p className="font-semibold">Incomplete: {result.missing.join(', ')} still need an answer.</p>
            )}
            {messages([...result.hits, ...result.flags]).map((m, i) => (
              <p key={i} className="mt-1 break-words">
                The patient is told: “{m}”
              </p>
            ))}
          </div>
        )}
        {result && (
          <button
            type="button"
            onClick={() => {
              setResult(null);
              setRound((r) => r + 1);
            }}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-700 shadow-sm hover:bg-slate-50"
          >
            Answer again
          </button>
        )}
      </div>
    </div>
  );
}
