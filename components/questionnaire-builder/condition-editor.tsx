'use client';

import { useId } from 'react';
import { newComparison, newGroup, type DraftComparison, type DraftCondition, type DraftGroup, type DraftItem, type Op } from './draft';
import { SelectInput, SmallButton, TextInput } from './fields';
import { isChoiceKind, isListOp, opsFor, opWords, operandChoices, operandKey, strayLabel, type Kind } from './operands';
import { FieldProblems, useInvalid } from './problems';
import { operandKind } from './serialize';

/**
 * A condition as the schema allows it (DESIGN decision 18): comparisons of an answer (or age, or BMI) with
 * values, grouped by "all of", "any of", "none of" or "not all of", groups nested. The question list offers
 * only what the validator accepts (earlier questions for `enableWhen`); the value control fits the question:
 * yes/no, its options, a number, a date, or text.
 */

interface Scope {
  items: readonly DraftItem[];
  /** Conditions may read the items before this index (a rule: all of them). */
  before: number;
}

const MAX_DEPTH = 3;

const JOINS = [
  { key: 'all', label: 'all of these are true', join: 'all', negate: false },
  { key: 'any', label: 'any of these is true', join: 'any', negate: false },
  { key: 'none', label: 'none of these is true', join: 'any', negate: true },
  { key: 'notall', label: 'not all of these are true', join: 'all', negate: true },
] as const;

export function ConditionEditor({ group, onChange, legend, scope, depth = 0 }: { group: DraftGroup; onChange: (g: DraftGroup) => void; legend: string; scope: Scope; depth?: number }) {
  const joinKey = JOINS.find((j) => j.join === group.join && j.negate === group.negate)!.key;
  const set = (i: number, c: DraftCondition) => onChange({ ...group, children: group.children.map((x, j) => (j === i ? c : x)) });
  const remove = (i: number) => onChange({ ...group, children: group.children.filter((_, j) => j !== i) });
  const add = (c: DraftCondition) => onChange({ ...group, children: [...group.children, c] });
  return (
    <fieldset data-testid="condition-group" className={`min-w-0 space-y-3 rounded-md border p-3 ${depth ? 'border-slate-300 bg-slate-50' : 'border-indigo-200 bg-indigo-50/40'}`}>
      <legend className="px-1 text-sm font-semibold text-slate-800">{legend}</legend>
      <FieldProblems uid={group.uid} />
      {(group.children.length > 1 || joinKey !== 'all' || !group.implicit) && (
        <SelectInput
          uid={group.uid}
          field="join"
          label="Match when"
          value={joinKey}
          onChange={(k) => {
            const j = JOINS.find((x) => x.key === k)!;
            onChange({ ...group, join: j.join, negate: j.negate, implicit: false });
          }}
          className="max-w-xs"
        >
          {JOINS.map((j) => (
            <option key={j.key} value={j.key}>
              {j.label}
            </option>
          ))}
        </SelectInput>
      )}
      <ol className="space-y-3">
        {group.children.map((c, i) => (
          <li key={c.uid} className="min-w-0">
            {c.kind === 'cmp' ? (
              <ComparisonRow cmp={c} n={i + 1} scope={scope} onChange={(x) => set(i, x)} onRemove={() => remove(i)} removable={group.children.length > 1 || depth > 0} />
            ) : (
              <div className="space-y-2">
                <ConditionEditor group={c} onChange={(x) => set(i, x)} legend={`Group ${i + 1}`} scope={scope} depth={depth + 1} />
                <SmallButton tone="danger" name={`group ${i + 1} of ${legend.toLowerCase()}`} onClick={() => remove(i)}>
                  Remove group
                </SmallButton>
              </div>
            )}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2">
        <SmallButton name={`to ${legend.toLowerCase()}`} onClick={() => add(newComparison())}>
          Add a comparison
        </SmallButton>
        {depth < MAX_DEPTH && (
          <SmallButton name={`to ${legend.toLowerCase()}`} onClick={() => add(newGroup([newComparison()], false))}>
            Add a group
          </SmallButton>
        )}
      </div>
    </fieldset>
  );
}

function ComparisonRow({ cmp, n, scope, onChange, onRemove, removable }: { cmp: DraftComparison; n: number; scope: Scope; onChange: (c: DraftComparison) => void; onRemove: () => void; removable: boolean }) {
  const names = new Map(scope.items.map((i) => [i.uid, i]));
  const choices = operandChoices(scope.items, scope.before);
  const current = operandKey(cmp.operand);
  const known = choices.some((c) => c.key === current);
  const kind = operandKind(cmp.operand, names);
  const ops = opsFor(kind);
  const shownOps = ops.includes(cmp.op) ? ops : [cmp.op, ...ops];

  const pickOperand = (key: string) => {
    const choice = choices.find((c) => c.key === key);
    if (!choice) return;
    const nextKind = operandKind(choice.operand, names);
    const op = opsFor(nextKind).includes(cmp.op) ? cmp.op : 'eq';
    onChange({ ...cmp, operand: choice.operand, loadedQ: undefined, op, text: kind === nextKind ? cmp.text : '', list: kind === nextKind ? cmp.list : [] });
  };
  const pickOp = (op: Op) => {
    const toList = isListOp(op) && !isListOp(cmp.op);
    const toOne = !isListOp(op) && isListOp(cmp.op);
    onChange({
      ...cmp,
      op,
      list: toList && cmp.text && cmp.op !== 'exists' ? [cmp.text] : cmp.list,
      text: op === 'exists' ? 'answered' : cmp.op === 'exists' ? '' : toOne ? (cmp.list[0] ?? '') : cmp.text,
      existsExplicit: op === 'exists' ? cmp.existsExplicit : undefined,
    });
  };

  return (
    <div data-testid="condition-row" className="min-w-0 rounded-md border border-slate-200 bg-white p-3">
      <p className="mb-2 text-xs font-semibold text-slate-600 uppercase">Comparison {n}</p>
      <FieldProblems uid={cmp.uid} />
      {cmp.negate && (
        <label className="mb-2 flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" checked onChange={() => onChange({ ...cmp, negate: false })} />
          Not (the opposite of this comparison)
        </label>
      )}
      <div className="grid gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,2fr)]">
        <SelectInput uid={cmp.uid} field="q" label="Question" value={known ? current : `stray:${current}`} onChange={pickOperand}>
          {!known && <option value={`stray:${current}`}>{strayLabel(cmp.operand, scope.items)}</option>}
          {choices.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </SelectInput>
        <SelectInput uid={cmp.uid} field="op" label="Comparison" value={cmp.op} onChange={(v) => pickOp(v as Op)}>
          {shownOps.map((op) => (
            <option key={op} value={op}>
              {opWords(op, kind)}
            </option>
          ))}
        </SelectInput>
        <ValueControl cmp={cmp} kind={kind} item={cmp.operand.kind === 'item' ? names.get(cmp.operand.uid) : undefined} onChange={onChange} />
      </div>
      {removable && (
        <div className="mt-2">
          <SmallButton tone="danger" name={`comparison ${n}`} onClick={onRemove}>
            Remove
          </SmallButton>
        </div>
      )}
    </div>
  );
}

function ValueControl({ cmp, kind, item, onChange }: { cmp: DraftComparison; kind: Kind; item?: DraftItem; onChange: (c: DraftComparison) => void }) {
  const setText = (text: string) => onChange({ ...cmp, text });
  const pin = { uid: cmp.uid, field: 'value' };
  if (cmp.op === 'exists') {
    return (
      <SelectInput {...pin} label="Value" value={cmp.text === 'unanswered' ? 'unanswered' : 'answered'} onChange={setText}>
        <option value="answered">answered</option>
        <option value="unanswered">not answered</option>
      </SelectInput>
    );
  }
  const options = isChoiceKind(kind) ? (item?.options ?? []).filter((o) => o.value) : null;
  if (isListOp(cmp.op)) {
    if (options) return <OptionChecks cmp={cmp} options={options} onChange={onChange} />;
    return (
      <TextInput
        {...pin}
        label="Values"
        hint="One per line"
        multiline
        value={cmp.list.join('\n')}
        onChange={(v) => onChange({ ...cmp, list: v.split('\n') })}
      />
    );
  }
  if (kind === 'boolean') {
    return (
      <SelectInput {...pin} label="Value" value={cmp.text} onChange={setText}>
        {cmp.text !== 'true' && cmp.text !== 'false' && <option value={cmp.text}>Choose…</option>}
        <option value="true">Yes</option>
        <option value="false">No</option>
      </SelectInput>
    );
  }
  if (options) {
    const listed = options.some((o) => o.value === cmp.text);
    return (
      <SelectInput {...pin} label="Value" value={cmp.text} onChange={setText}>
        {!listed && <option value={cmp.text}>{cmp.text ? `${cmp.text} (not an option)` : 'Choose…'}</option>}
        {options.map((o) => (
          <option key={o.uid} value={o.value}>
            {o.label || o.value}
          </option>
        ))}
      </SelectInput>
    );
  }
  if (kind === 'date') return <TextInput {...pin} type="date" label="Value" value={cmp.text} onChange={setText} />;
  const number = kind === 'number' || kind === 'integer' || kind === 'decimal';
  return <TextInput {...pin} label="Value" inputMode={number ? 'decimal' : 'text'} value={cmp.text} onChange={setText} />;
}

function OptionChecks({ cmp, options, onChange }: { cmp: DraftComparison; options: DraftItem['options']; onChange: (c: DraftComparison) => void }) {
  const id = useId();
  const aria = useInvalid(cmp.uid, 'value');
  const toggle = (value: string, on: boolean) => onChange({ ...cmp, list: on ? [...cmp.list, value] : cmp.list.filter((v) => v !== value) });
  const stray = cmp.list.filter((v) => !options.some((o) => o.value === v));
  return (
    <fieldset className="min-w-0" aria-describedby={aria['aria-describedby']}>
      <legend id={id} className="text-sm font-medium text-slate-700">
        Values
      </legend>
      <div className="mt-1 space-y-1">
        {[...options.map((o) => ({ value: o.value, label: o.label || o.value })), ...stray.map((v) => ({ value: v, label: `${v} (not an option)` }))].map((o) => (
          <label key={o.value} className="flex items-start gap-2 text-sm text-slate-800">
            <input type="checkbox" className="mt-0.5" checked={cmp.list.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
            <span className="break-words">{o.label}</span>
          </label>
        ))}
      </div>
      <FieldProblems uid={cmp.uid} field="value" />
    </fieldset>
  );
}
