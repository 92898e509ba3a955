'use client';

import { FACT_WORDS, TYPE_WORDS } from '@/components/console/intake/questionnaire-words';
import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import { ITEM_TYPES, UNITS } from '@/server/domain/intake/shared/shapes';
import { ConditionEditor } from './condition-editor';
import { CHOICE_TYPES, FACTS, move, newGroup, newOption, NUMERIC_TYPES, slug, type DraftItem, type DraftOption, type Fact, type ItemType, type Unit } from './draft';
import { SelectInput, SmallButton, TextInput } from './fields';
import { FieldProblems, useProblems } from './problems';

/** One question of the builder: its wording, answer type, options or range, identity fact, and when it shows. */

/** The answer type an identity fact needs (DESIGN decision 31): a date, or a choice (a state from the one list). */
const FACT_TYPE: Record<Fact, ItemType> = { dateOfBirth: 'date', sexAtBirth: 'choice', state: 'choice' };

export function ItemEditor({
  item,
  index,
  items,
  onChange,
  onOptionRenamed,
  onMove,
  onRemove,
}: {
  item: DraftItem;
  index: number;
  items: readonly DraftItem[];
  onChange: (i: DraftItem) => void;
  onOptionRenamed: (from: string, to: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const name = `question ${n}`;
  const problems = useProblems().within(item.uid).length;
  const set = <K extends keyof DraftItem>(k: K, v: DraftItem[K]) => onChange({ ...item, [k]: v });
  const pin = (field: string) => ({ uid: item.uid, field });

  const pickFact = (fact: Fact | '') => {
    const next: DraftItem = { ...item, fact };
    if (fact) next.type = FACT_TYPE[fact];
    if (fact === 'state' && item.options.length === 0) next.options = US_STATE_OPTIONS.map((s) => newOption(s.label, s.value));
    if (fact === 'sexAtBirth' && item.options.length === 0) next.options = [newOption('Female', 'female'), newOption('Male', 'male')];
    onChange(next);
  };

  return (
    <li data-testid="builder-item" data-link-id={item.linkId} aria-labelledby={`${item.uid}-heading`} className={`min-w-0 space-y-4 rounded-lg border bg-white p-4 ${problems ? 'border-red-300' : 'border-slate-200'}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h3 id={`${item.uid}-heading`} tabIndex={-1} className="mr-auto min-w-0 text-base font-semibold break-words text-slate-900">
          Question {n}
          {item.linkId && <code className="ml-2 font-mono text-xs font-normal break-all text-slate-600">{item.linkId}</code>}
          {problems > 0 && <span className="ml-2 text-sm font-medium text-red-700">{problems === 1 ? '1 problem' : `${problems} problems`}</span>}
        </h3>
        <SmallButton name={name} disabled={index === 0} onClick={() => onMove(index - 1)}>
          Move up
        </SmallButton>
        <SmallButton name={name} disabled={index === items.length - 1} onClick={() => onMove(index + 1)}>
          Move down
        </SmallButton>
        <SmallButton tone="danger" name={name} disabled={items.length === 1} onClick={onRemove}>
          Remove
        </SmallButton>
      </div>
      <FieldProblems uid={item.uid} />
      <TextInput {...pin('text')} label="Question" multiline maxLength={1000} value={item.text} onChange={(v) => set('text', v)} />
      <TextInput {...pin('help')} label="Help text" optional maxLength={1000} value={item.help} onChange={(v) => set('help', v)} />
      <div className="grid gap-3 sm:grid-cols-3">
        <TextInput
          {...pin('linkId')}
          label="Answer id"
          hint="A letter, then letters, digits, _ or -. Conditions follow a renamed id."
          maxLength={64}
          value={item.linkId}
          onChange={(v) => set('linkId', v)}
        />
        <SelectInput {...pin('type')} label="Answer type" value={item.type} onChange={(v) => set('type', v as ItemType)}>
          {ITEM_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_WORDS[t]}
            </option>
          ))}
        </SelectInput>
        <SelectInput {...pin('fact')} label="Identity fact" hint="Marks the answer as the person’s own fact" value={item.fact} onChange={(v) => pickFact(v as Fact | '')}>
          <option value="">None</option>
          {FACTS.map((f) => (
            <option key={f} value={f}>
              {FACT_WORDS[f]}
            </option>
          ))}
        </SelectInput>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={item.required} onChange={(e) => set('required', e.target.checked)} />
        The patient must answer it (when it is shown)
      </label>
      <FieldProblems uid={item.uid} field="required" />
      {NUMERIC_TYPES.includes(item.type) && (
        <div className="grid gap-3 sm:grid-cols-3">
          <TextInput {...pin('min')} label="Smallest answer" optional inputMode="decimal" value={item.min} onChange={(v) => set('min', v)} />
          <TextInput {...pin('max')} label="Largest answer" optional inputMode="decimal" value={item.max} onChange={(v) => set('max', v)} />
          <SelectInput {...pin('unit')} label="Unit" value={item.unit} onChange={(v) => set('unit', v as Unit | '')}>
            <option value="">None</option>
            {UNITS.map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </SelectInput>
        </div>
      )}
      {CHOICE_TYPES.includes(item.type) && (
        <OptionsEditor item={item} onChange={(options) => set('options', options)} onRenamed={onOptionRenamed} onStates={() => set('options', US_STATE_OPTIONS.map((s) => newOption(s.label, s.value)))} />
      )}
      <div className="space-y-2">
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" checked={item.enableWhen !== null} disabled={index === 0 && item.enableWhen === null} onChange={(e) => set('enableWhen', e.target.checked ? newGroup() : null)} />
          Show this question only when earlier answers match
        </label>
        {index === 0 && item.enableWhen === null && <p className="text-xs text-slate-600">The first question is always shown: a condition reads earlier answers only.</p>}
        <FieldProblems uid={item.uid} field="enableWhen" />
        {item.enableWhen && <ConditionEditor group={item.enableWhen} onChange={(g) => set('enableWhen', g)} legend={`Show question ${n} when`} scope={{ items, before: index }} />}
      </div>
    </li>
  );
}

function OptionsEditor({ item, onChange, onRenamed, onStates }: { item: DraftItem; onChange: (o: DraftOption[]) => void; onRenamed: (from: string, to: string) => void; onStates: () => void }) {
  const opts = item.options;
  const set = (k: number, o: DraftOption) => {
    const before = opts[k]!;
    if (before.value !== o.value) onRenamed(before.value, o.value);
    onChange(opts.map((x, j) => (j === k ? o : x)));
  };
  return (
    <fieldset className="min-w-0 space-y-3 rounded-md border border-slate-200 p-3">
      <legend className="px-1 text-sm font-semibold text-slate-800">Options</legend>
      <FieldProblems uid={item.uid} field="options" />
      <ol className="space-y-3">
        {opts.map((o, k) => (
          <li key={o.uid} data-testid="builder-option" className="grid min-w-0 gap-2 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end">
            <TextInput uid={o.uid} field="label" label={`Option ${k + 1} label`} maxLength={300} value={o.label} onChange={(label) => set(k, { ...o, label, value: o.autoValue ? slug(label) : o.value })} />
            <TextInput uid={o.uid} field="value" label={`Option ${k + 1} value`} maxLength={100} value={o.value} onChange={(value) => set(k, { ...o, value, autoValue: false })} />
            <div className="flex flex-wrap gap-1 sm:pb-0.5">
              <SmallButton name={`option ${k + 1}`} disabled={k === 0} onClick={() => onChange(move(opts, k, k - 1))}>
                Up
              </SmallButton>
              <SmallButton name={`option ${k + 1}`} disabled={k === opts.length - 1} onClick={() => onChange(move(opts, k, k + 1))}>
                Down
              </SmallButton>
              <SmallButton tone="danger" name={`option ${k + 1}`} onClick={() => onChange(opts.filter((_, j) => j !== k))}>
                Remove
              </SmallButton>
            </div>
            {item.type === 'multi_choice' && (
              <label className="flex items-center gap-2 text-xs text-slate-700 sm:col-span-3">
                <input type="checkbox" checked={o.exclusive} onChange={(e) => set(k, { ...o, exclusive: e.target.checked })} />
                Option {k + 1} is chosen alone, like “None of these” (ticking it unticks the others)
              </label>
            )}
            <FieldProblems uid={o.uid} />
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <SmallButton name={`to question ${item.linkId}`} onClick={() => onChange([...opts, newOption()])}>
          Add an option
        </SmallButton>
        {item.fact === 'state' && (
          <SmallButton onClick={onStates}>Use the list of US states</SmallButton>
        )}
      </div>
    </fieldset>
  );
}
