'use client';

import { useState } from 'react';
import type { PatientItem } from './types';

const UNIT_LABEL: Record<string, string> = { cm: 'cm', in: 'inches', kg: 'kg', lb: 'pounds' };

/** Ids shared with the error summary: its links point at the item's first control. */
export const fieldId = (linkId: string) => `q-${linkId}`;
const errorId = (linkId: string) => `q-${linkId}-error`;
const helpId = (linkId: string) => `q-${linkId}-help`;

interface Props {
  item: PatientItem;
  value: string | string[] | undefined;
  error?: string;
  onChange(value: string | string[]): void;
}

const control =
  'mt-2 block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

function Hint({ item, error }: { item: PatientItem; error?: string }) {
  return (
    <>
      {item.help && (
        <p id={helpId(item.linkId)} className="mt-1 text-sm text-slate-600">
          {item.help}
        </p>
      )}
      {error && (
        <p id={errorId(item.linkId)} className="mt-1 text-sm font-medium text-red-700">
          <span className="sr-only">Error: </span>
          {error}
        </p>
      )}
    </>
  );
}

const describedBy = (item: PatientItem, error?: string) => [item.help ? helpId(item.linkId) : '', error ? errorId(item.linkId) : ''].filter(Boolean).join(' ') || undefined;

const requiredMark = (item: PatientItem) => (item.required ? null : <span className="font-normal text-slate-600"> (optional)</span>);

/** A single choice with more options than this is a native select (DESIGN decision 46): the 52 states, say. */
const SELECT_OVER = 8;

/**
 * The ticked values after ticking or unticking `v` (DESIGN decision 46): an `exclusive` option ("None of these")
 * unticks every other, and ticking another option unticks the exclusive ones. Also says what it unticked.
 */
function toggled(item: PatientItem, chosen: readonly string[], v: string): { next: string[]; cleared: string[] } {
  if (chosen.includes(v)) return { next: chosen.filter((c) => c !== v), cleared: [] };
  const exclusive = new Set((item.options ?? []).filter((o) => o.exclusive).map((o) => o.value));
  const cleared = chosen.filter((c) => (exclusive.has(v) ? c !== v : exclusive.has(c)));
  return { next: [...chosen.filter((c) => !cleared.includes(c)), v], cleared };
}

/** Choices as radios or checkboxes in a fieldset whose legend is the question. */
function Choices({ item, value, error, onChange }: Props) {
  const multi = item.type === 'multi_choice';
  const options = item.type === 'boolean' ? [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }] : (item.options ?? []);
  const chosen = Array.isArray(value) ? value : value ? [value] : [];
  // What ticking an exclusive option (or another one beside it) unticked, said to screen readers.
  const [note, setNote] = useState('');
  const toggle = (v: string) => {
    const { next, cleared } = toggled(item, chosen, v);
    const labels = cleared.map((c) => options.find((o) => o.value === c)?.label ?? c);
    setNote(labels.length ? `Unticked: ${labels.join(', ')}.` : '');
    onChange(next);
  };
  return (
    <fieldset aria-describedby={describedBy(item, error)} aria-invalid={error ? true : undefined}>
      <legend className="text-base font-medium text-slate-900">
        {item.text}
        {requiredMark(item)}
      </legend>
      <Hint item={item} error={error} />
      {multi && (
        <p className="sr-only" aria-live="polite">
          {note}
        </p>
      )}
      <div className="mt-2 space-y-2">
        {options.map((o, i) => {
          const id = i === 0 ? fieldId(item.linkId) : `${fieldId(item.linkId)}-${i}`;
          return (
            <label key={o.value} htmlFor={id} className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 bg-white px-3 py-3 has-[:checked]:border-indigo-700">
              <input
                id={id}
                type={multi ? 'checkbox' : 'radio'}
                name={item.linkId}
                value={o.value}
                checked={chosen.includes(o.value)}
                onChange={() => (multi ? toggle(o.value) : onChange(o.value))}
                className="mt-0.5 h-5 w-5 shrink-0 accent-indigo-700"
              />
              <span className="flex-1 text-base text-slate-800">{o.label}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A long single choice as a native select, labelled by the question; a state of residence offers autofill. */
function Select({ item, value, error, onChange }: Props) {
  const state = item.fact === 'state';
  return (
    <div>
      <label htmlFor={fieldId(item.linkId)} className="block text-base font-medium text-slate-900">
        {item.text}
        {requiredMark(item)}
      </label>
      <Hint item={item} error={error} />
      <select
        id={fieldId(item.linkId)}
        name={item.linkId}
        value={typeof value === 'string' ? value : ''}
        aria-describedby={describedBy(item, error)}
        aria-invalid={error ? true : undefined}
        aria-required={item.required || undefined}
        autoComplete={state ? 'address-level1' : 'off'}
        onChange={(e) => onChange(e.target.value)}
        className={`${control} ${error ? 'border-red-600' : 'border-slate-400'}`}
      >
        <option value="">{state ? 'Choose a state' : 'Choose one'}</option>
        {(item.options ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** One question, rendered by its type, labelled, with its help and error tied to the control. */
export function QuestionField(props: Props) {
  const { item, value, error, onChange } = props;
  if (item.type === 'choice' && (item.options?.length ?? 0) > SELECT_OVER) return <Select {...props} />;
  if (item.type === 'boolean' || item.type === 'choice' || item.type === 'multi_choice') return <Choices {...props} />;
  const text = typeof value === 'string' ? value : '';
  const common = {
    id: fieldId(item.linkId),
    name: item.linkId,
    value: text,
    'aria-describedby': describedBy(item, error),
    'aria-invalid': error ? true : undefined,
    'aria-required': item.required || undefined,
    className: `${control} ${error ? 'border-red-600' : 'border-slate-400'}`,
  };
  const unit = item.unit ? ` (${UNIT_LABEL[item.unit] ?? item.unit})` : '';
  return (
    <div>
      <label htmlFor={fieldId(item.linkId)} className="block text-base font-medium text-slate-900">
        {item.text}
        {unit}
        {requiredMark(item)}
      </label>
      <Hint item={item} error={error} />
      {item.type === 'text' ? (
        <textarea {...common} rows={4} onChange={(e) => onChange(e.target.value)} />
      ) : item.type === 'date' ? (
        // The date of birth (fact: dateOfBirth, decision 31; a questionnaire asks it once) offers the browser's autofill.
        <input {...common} type="date" autoComplete={item.fact === 'dateOfBirth' ? 'bday' : 'off'} onChange={(e) => onChange(e.target.value)} />
      ) : item.type === 'integer' || item.type === 'decimal' ? (
        <input {...common} type="text" inputMode={item.type === 'integer' ? 'numeric' : 'decimal'} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
