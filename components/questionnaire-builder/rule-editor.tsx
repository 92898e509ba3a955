'use client';

import { ConditionEditor } from './condition-editor';
import type { DraftItem, DraftRule } from './draft';
import { SelectInput, SmallButton, TextInput } from './fields';
import { FieldProblems, useProblems } from './problems';

/**
 * One eligibility rule: when it applies (over every question, and age or BMI), what it does (disqualify, or
 * flag the submission for the provider's attention) and what the patient is told.
 */
export function RuleEditor({
  rule,
  index,
  count,
  items,
  onChange,
  onMove,
  onRemove,
}: {
  rule: DraftRule;
  index: number;
  count: number;
  items: readonly DraftItem[];
  onChange: (r: DraftRule) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const name = `rule ${n}`;
  const problems = useProblems().within(rule.uid).length;
  const pin = (field: string) => ({ uid: rule.uid, field });
  return (
    <li data-testid="builder-rule" aria-labelledby={`${rule.uid}-heading`} className={`min-w-0 space-y-4 rounded-lg border bg-white p-4 ${problems ? 'border-red-300' : 'border-slate-200'}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${rule.uid}-heading`} tabIndex={-1} className="mr-auto min-w-0 text-base font-semibold break-words text-slate-900">
          Rule {n}
          {rule.id && <code className="ml-2 font-mono text-xs font-normal break-all text-slate-600">{rule.id}</code>}
          {problems > 0 && <span className="ml-2 text-sm font-medium text-red-700">{problems === 1 ? '1 problem' : `${problems} problems`}</span>}
        </h3>
        <SmallButton name={name} disabled={index === 0} onClick={() => onMove(index - 1)}>
          Move up
        </SmallButton>
        <SmallButton name={name} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
          Move down
        </SmallButton>
        <SmallButton tone="danger" name={name} onClick={onRemove}>
          Remove
        </SmallButton>
      </div>
      <FieldProblems uid={rule.uid} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextInput {...pin('id')} label="Rule id" hint="A letter, then letters, digits, _ or -" maxLength={64} value={rule.id} onChange={(id) => onChange({ ...rule, id })} />
        <SelectInput {...pin('effect')} label="Effect" value={rule.effect} onChange={(v) => onChange({ ...rule, effect: v as DraftRule['effect'] })}>
          <option value="disqualify">Disqualify: the patient cannot go on</option>
          <option value="review_flag">Flag for the provider’s review</option>
        </SelectInput>
      </div>
      <TextInput {...pin('patientMessage')} label="What the patient is told" multiline maxLength={500} value={rule.patientMessage} onChange={(patientMessage) => onChange({ ...rule, patientMessage })} />
      <FieldProblems uid={rule.uid} field="when" />
      <ConditionEditor group={rule.when} onChange={(when) => onChange({ ...rule, when })} legend={`Rule ${n} applies when`} scope={{ items, before: items.length }} />
    </li>
  );
}
