'use client';

import { useEffect, useRef, useState } from 'react';
import { primaryButton } from '@/components/flows/error-summary';
import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import { useHydrated } from '@/web/use-hydrated';
import { portalAction } from './portal-actions';
import type { PatientAddress, PatientOrder } from './portal-types';
import { control } from './portal-ui';

type Fields = { line1: string; line2: string; city: string; state: string; postalCode: string; phone: string };
const LABELS: Record<keyof Fields, string> = {
  line1: 'Street address',
  line2: 'Apartment, suite or unit (optional)',
  city: 'City',
  state: 'State',
  postalCode: 'ZIP code',
  phone: 'Phone for the delivery (optional)',
};
const AUTOCOMPLETE: Record<keyof Fields, string> = { line1: 'address-line1', line2: 'address-line2', city: 'address-level2', state: 'address-level1', postalCode: 'postal-code', phone: 'tel' };
const id = (name: keyof Fields) => `shipping-${name}`;

function check(v: Fields): Partial<Record<keyof Fields, string>> {
  const found: Partial<Record<keyof Fields, string>> = {};
  if (!v.line1.trim()) found.line1 = 'Enter the street address.';
  if (!v.city.trim()) found.city = 'Enter the city.';
  if (!v.state) found.state = 'Choose the state.';
  if (!/^\d{5}(-\d{4})?$/.test(v.postalCode.trim())) found.postalCode = 'Enter a ZIP code like 94607 or 94607-1234.';
  return found;
}

/** The server's field names (`address.line1`, `phone`) as this form's. */
const fieldOf = (param: string | null): keyof Fields | null => {
  const name = param?.replace(/^address\./, '') ?? '';
  return name in LABELS ? (name as keyof Fields) : null;
};

/**
 * Where the order ships, while it has not gone to the pharmacy (DESIGN decision 40). A new state sends the order
 * back to a provider licensed there; the form says so before it is sent and after.
 */
export function ShippingForm({
  embedKey,
  orderId,
  address,
  phone,
  onSaved,
}: {
  embedKey: string;
  orderId: string;
  address: PatientAddress | null;
  phone: string | null;
  onSaved: (order: PatientOrder) => void;
}) {
  const hydrated = useHydrated();
  const [v, setV] = useState<Fields>({
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    postalCode: address?.postalCode ?? '',
    phone: phone ?? '',
  });
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (said) status.current?.focus();
  }, [said]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = check(v);
    setErrors(found);
    setSaid(undefined);
    if (Object.keys(found).length) return setSaid({ ok: false, text: 'Please correct the fields marked below.' });
    setBusy(true);
    const movedState = Boolean(address && address.state !== v.state);
    const result = await portalAction(embedKey, 'shipping', {
      id: orderId,
      address: { line1: v.line1.trim(), line2: v.line2.trim() || null, city: v.city.trim(), state: v.state, postalCode: v.postalCode.trim(), country: 'US' },
      ...(v.phone.trim() ? { phone: v.phone.trim() } : phone ? { phone: null } : {}),
    });
    setBusy(false);
    if (!result.ok) {
      const field = fieldOf(result.field);
      if (field) setErrors({ [field]: result.message });
      return setSaid({ ok: false, text: result.message });
    }
    setSaid({ ok: true, text: movedState ? 'Saved. Because the new address is in another state, a provider licensed there reviews your order again.' : 'Saved. Your order will ship to the new address.' });
    onSaved(result.order);
  }

  const input = (name: keyof Fields, type = 'text') => (
    <div>
      <label htmlFor={id(name)} className="block text-base font-medium">
        {LABELS[name]}
      </label>
      {name === 'state' ? (
        <select
          id={id(name)}
          value={v.state}
          autoComplete={AUTOCOMPLETE.state}
          onChange={(e) => setV({ ...v, state: e.target.value })}
          aria-invalid={errors.state ? true : undefined}
          aria-describedby={errors.state ? `${id(name)}-error` : undefined}
          className={`${control} ${errors.state ? 'border-red-600' : 'border-slate-400'}`}
        >
          <option value="">Choose a state</option>
          {US_STATE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id(name)}
          type={type}
          value={v[name]}
          autoComplete={AUTOCOMPLETE[name]}
          inputMode={name === 'postalCode' ? 'numeric' : undefined}
          onChange={(e) => setV({ ...v, [name]: e.target.value })}
          aria-invalid={errors[name] ? true : undefined}
          aria-describedby={errors[name] ? `${id(name)}-error` : undefined}
          className={`${control} ${errors[name] ? 'border-red-600' : 'border-slate-400'}`}
        />
      )}
      {errors[name] && (
        <p id={`${id(name)}-error`} className="mt-1 text-sm font-medium text-red-700">
          <span className="sr-only">Error: </span>
          {errors[name]}
        </p>
      )}
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-labelledby="portal-shipping">
      {said && (
        <p
          ref={status}
          tabIndex={-1}
          role={said.ok ? 'status' : 'alert'}
          className={`rounded-md border-2 p-3 text-base ${said.ok ? 'border-green-700 bg-green-50 text-green-900' : 'border-red-700 bg-red-50 text-red-900'}`}
        >
          {said.text}
        </p>
      )}
      {input('line1')}
      {input('line2')}
      {input('city')}
      {input('state')}
      {input('postalCode')}
      {input('phone', 'tel')}
      <p className="text-sm text-slate-600">A change of state sends the order back to a provider licensed in the new state before it ships.</p>
      <button type="submit" disabled={busy || !hydrated} className={primaryButton}>
        {busy ? 'Saving…' : 'Save shipping address'}
      </button>
    </form>
  );
}
