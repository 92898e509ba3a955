'use client';

import { QUIZ_QUESTION_TYPES, type FlowStepShape, type QuizQuestionShape, type QuizStepShape } from '@/server/domain/flows/shared/shapes';
import { BusyButton, CheckboxField, SelectField } from '../catalog/catalog-ui';
import { ClinicalBadge, CopyField, withOptional } from './flow-fields';
import { isClinical, KIND_LABEL } from './flow-steps';

/** "value|label" per line, the way a person types a short option list. */
const optionsText = (q: QuizQuestionShape) => (q.options ?? []).map((o) => (o.value === o.label ? o.value : `${o.value}|${o.label}`)).join('\n');
function parseOptions(text: string): QuizQuestionShape['options'] {
  const options = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [value, ...label] = line.split('|');
      return { value: value.trim(), label: (label.join('|') || value).trim() };
    });
  return options;
}

function QuizQuestions({ step, onChange }: { step: QuizStepShape; onChange: (step: QuizStepShape) => void }) {
  const set = (j: number, q: QuizQuestionShape) => onChange({ ...step, questions: step.questions.map((x, i) => (i === j ? q : x)) });
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-800">Questions (marketing only: they never decide eligibility)</legend>
      {step.questions.map((q, j) => {
        const choice = q.type === 'choice' || q.type === 'multi_choice';
        return (
          <div key={j} className="space-y-2 rounded-md border border-slate-200 p-3">
            <CopyField label={`Question ${j + 1} text`} value={q.text} onChange={(text) => set(j, { ...q, text })} maxLength={500} />
            <div className="grid gap-2 sm:grid-cols-2">
              <SelectField
                label={`Question ${j + 1} type`}
                value={q.type}
                onChange={(e) => {
                  const type = e.target.value as QuizQuestionShape['type'];
                  const wantsOptions = type === 'choice' || type === 'multi_choice';
                  const { options: _dropped, ...rest } = q;
                  set(j, wantsOptions ? { ...rest, type, options: q.options ?? [{ value: 'yes', label: 'Yes' }] } : { ...rest, type });
                }}
              >
                {QUIZ_QUESTION_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t.replace('_', ' ')}
                  </option>
                ))}
              </SelectField>
              <div className="flex items-end pb-2">
                <CheckboxField label={`Question ${j + 1} required`} checked={q.required} onChange={(e) => set(j, { ...q, required: e.target.checked })} />
              </div>
            </div>
            {choice && <CopyField label={`Question ${j + 1} options`} hint="One per line: value|label (or just the label)" multiline value={optionsText(q)} onChange={(text) => set(j, { ...q, options: parseOptions(text) })} />}
            {step.questions.length > 1 && (
              <BusyButton variant="danger" onClick={() => onChange({ ...step, questions: step.questions.filter((_, i) => i !== j) })}>
                Remove question {j + 1}
              </BusyButton>
            )}
          </div>
        );
      })}
      <BusyButton
        variant="secondary"
        onClick={() => {
          const taken = step.questions.map((q) => q.id);
          let n = step.questions.length + 1;
          while (taken.includes(`q${n}`)) n++;
          onChange({ ...step, questions: [...step.questions, { id: `q${n}`, text: 'Another question', type: 'string', required: false }] });
        }}
      >
        Add a question
      </BusyButton>
    </fieldset>
  );
}

/**
 * The fields of one step. Presentation steps edit their copy freely; clinical steps carry the clinical badge,
 * and any change to them makes the next publication wait for a provider.
 */
export function StepEditor({ step, onChange }: { step: FlowStepShape; onChange: (step: FlowStepShape) => void }) {
  return (
    <div className="space-y-3" data-testid="step-editor">
      <div className="flex flex-wrap items-center gap-2">
        <h3 className="font-semibold text-slate-900">
          {KIND_LABEL[step.kind]} <code className="font-mono text-xs text-slate-600">{step.id}</code>
        </h3>
        {isClinical(step) && <ClinicalBadge />}
      </div>
      {isClinical(step) && (
        <p className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-900">
          This step is part of the clinical plane. You may edit it, but the next publication will wait until a provider reviews and approves the change.
        </p>
      )}
      {step.kind === 'landing' && (
        <>
          <CopyField label="Headline" value={step.blocks.headline} maxLength={200} onChange={(headline) => onChange({ ...step, blocks: { ...step.blocks, headline } })} />
          <CopyField label="Body" optional multiline maxLength={2000} value={step.blocks.body} onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'body', t) })} />
          <CopyField label="Button" optional maxLength={60} value={step.blocks.cta} onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'cta', t) })} />
        </>
      )}
      {step.kind === 'quiz' && (
        <>
          <CopyField label="Title" value={step.blocks.title} maxLength={200} onChange={(title) => onChange({ ...step, blocks: { ...step.blocks, title } })} />
          <CopyField label="Body" optional multiline maxLength={2000} value={step.blocks.body} onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'body', t) })} />
          <CopyField label="Button" optional maxLength={60} value={step.blocks.cta} onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'cta', t) })} />
          <QuizQuestions step={step} onChange={onChange} />
        </>
      )}
      {step.kind === 'outcome' && (
        <>
          <CopyField label="Eligible title" value={step.blocks.eligibleTitle} maxLength={200} onChange={(v) => onChange({ ...step, blocks: { ...step.blocks, eligibleTitle: v } })} />
          <CopyField label="Eligible body" multiline value={step.blocks.eligibleBody} maxLength={2000} onChange={(v) => onChange({ ...step, blocks: { ...step.blocks, eligibleBody: v } })} />
          <CopyField label="Not eligible title" value={step.blocks.disqualifiedTitle} maxLength={200} onChange={(v) => onChange({ ...step, blocks: { ...step.blocks, disqualifiedTitle: v } })} />
          <CopyField label="Not eligible body" multiline value={step.blocks.disqualifiedBody} maxLength={2000} onChange={(v) => onChange({ ...step, blocks: { ...step.blocks, disqualifiedBody: v } })} />
          <CopyField
            label="Eligible button"
            optional
            maxLength={60}
            hint="Leads to the store checkout when the flow hands off to one, else to the page below. Without either, the label is shown as the first next step."
            value={step.blocks.cta}
            onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'cta', t) })}
          />
          <CopyField
            label="Eligible button link"
            optional
            maxLength={2000}
            hint="An https page of your site, e.g. what to expect next."
            value={step.blocks.ctaUrl}
            onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'ctaUrl', t) })}
          />
          <CopyField
            label="Not eligible: where to go instead"
            optional
            maxLength={60}
            hint="The label of a link for patients who are not eligible, e.g. Find care near you."
            value={step.blocks.disqualifiedCta}
            onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'disqualifiedCta', t) })}
          />
          <CopyField
            label="Not eligible link"
            optional
            maxLength={2000}
            hint="The https page it opens."
            value={step.blocks.disqualifiedUrl}
            onChange={(t) => onChange({ ...step, blocks: withOptional(step.blocks, 'disqualifiedUrl', t) })}
          />
        </>
      )}
      {step.kind === 'medical' && (
        <>
          <CopyField label="Page title" value={step.title} maxLength={200} onChange={(title) => onChange({ ...step, title })} />
          <CopyField
            label="Questionnaire items on this page"
            hint="The linkIds of the approved questionnaire, separated by commas. Every item must be on exactly one medical page."
            value={step.linkIds.join(', ')}
            onChange={(t) => onChange({ ...step, linkIds: t.split(',').map((x) => x.trim()).filter(Boolean) })}
          />
        </>
      )}
      {step.kind === 'consent' && (
        <>
          <CopyField label="Consent title" value={step.title} maxLength={200} onChange={(title) => onChange({ ...step, title })} />
          <CopyField label="Consent text" multiline value={step.text} maxLength={10000} onChange={(text) => onChange({ ...step, text })} />
          <CopyField label="Consent version" hint="Patients accept this exact version; change it whenever the text changes." value={step.version} maxLength={32} onChange={(version) => onChange({ ...step, version })} />
        </>
      )}
      {step.kind === 'contact' && (
        <>
          <CopyField label="Page title" value={step.title} maxLength={200} onChange={(title) => onChange({ ...step, title })} />
          <p className="text-sm text-slate-600">The fields are fixed: name, e-mail, state and date of birth (what a prescription needs).</p>
        </>
      )}
    </div>
  );
}
