'use client';

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

/** Choices as radios or checkboxes in a fieldset whose legend is the question. */
function Choices({ item, value, error, onChange }: Props) {
  const multi = item.type === 'multi_choice';
  const options = item.type === 'boolean' ? [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }] : (item.options ?? []);
  const chosen = Array.isArray(value) ? value : value ? [value] : [];
  const toggle = (v: string) => onChange(chosen.includes(v) ? chosen.filter((c) => c !== v) : [...chosen, v]);
  return (
    <fieldset aria-describedby={describedBy(item, error)} aria-invalid={error ? true : undefined}>
      <legend className="text-base font-medium text-slate-900">
        {item.text}
        {requiredMark(item)}
      </legend>
      <Hint item={item} error={error} />
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

/** One question, rendered by its type, labelled, with its help and error tied to the control. */
export function QuestionField(props: Props) {
  const { item, value, error, onChange } = props;
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
        <input {...common} type="date" autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      ) : item.type === 'integer' || item.type === 'decimal' ? (
        <input {...common} type="text" inputMode={item.type === 'integer' ? 'numeric' : 'decimal'} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
