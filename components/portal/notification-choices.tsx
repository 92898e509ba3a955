'use client';

import { useState } from 'react';
import { portalAction } from './portal-actions';
import type { PatientProfile } from './portal-types';

type Choices = PatientProfile['notifications'];

/**
 * The patient's notice choices (DESIGN decisions 40, 41), saved as each box changes and announced. Texts can be
 * chosen only with a phone given with consent to texts; the box says how to get there otherwise.
 */
export function NotificationChoices({ embedKey, initial }: { embedKey: string; initial: Choices }) {
  const [choices, setChoices] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string }>();

  async function change(channel: 'email' | 'sms', on: boolean) {
    setSaving(true);
    setSaid(undefined);
    const result = await portalAction(embedKey, 'notifications', { [channel]: on });
    setSaving(false);
    if (!result.ok) return setSaid({ ok: false, text: result.message });
    setChoices(result.notifications);
    setSaid({ ok: true, text: `Saved: ${channel === 'email' ? 'e-mail' : 'text message'} notices are ${on ? 'on' : 'off'}.` });
  }

  return (
    <fieldset className="space-y-3">
      <legend className="sr-only">Notices about your orders</legend>
      <p className="text-sm text-slate-700">We let you know when your order is approved, ships and is delivered, or if it needs attention.</p>
      <label className="flex items-start gap-3 text-base">
        <input type="checkbox" className="mt-1 size-5 accent-indigo-700" checked={choices.email} disabled={saving} onChange={(e) => change('email', e.target.checked)} />
        <span>By e-mail</span>
      </label>
      <label className="flex items-start gap-3 text-base">
        <input
          type="checkbox"
          className="mt-1 size-5 accent-indigo-700"
          checked={choices.sms}
          disabled={saving || (!choices.smsAvailable && !choices.sms)}
          aria-describedby={choices.smsAvailable ? undefined : 'portal-sms-hint'}
          onChange={(e) => change('sms', e.target.checked)}
        />
        <span>
          By text message
          {!choices.smsAvailable && (
            <span id="portal-sms-hint" className="block text-sm text-slate-600">
              Texts need a mobile number given to your clinic with your consent to texts.
            </span>
          )}
        </span>
      </label>
      <p role="status" className={`min-h-5 text-sm ${said?.ok === false ? 'font-medium text-red-700' : 'text-slate-700'}`}>
        {said?.text}
      </p>
    </fieldset>
  );
}
