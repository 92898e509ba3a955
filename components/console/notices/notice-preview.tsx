'use client';

import { useState } from 'react';
import { renderMessage } from '@/server/domain/notices/shared/messages';
import { NOTICE_CHANNELS, NOTICE_MILESTONES, type NoticeCause, type NoticeChannel, type NoticeMilestone } from '@/server/domain/notices/shared/milestones';
import { card } from '../catalog/catalog-ui';
import { CHANNEL_WORDS, MILESTONE_WORDS } from './notice-words';

const SAMPLE_SHIPMENT = { carrier: 'UPS', trackingUrl: 'https://www.ups.com/track?tracknum=1Z999AA10123456784', trackingNumber: '1Z999AA10123456784' };

/**
 * Each message as a patient would read it, rendered in the browser by the same rules the server sends with
 * (server/domain/notices/shared/messages.ts), from the form as it stands: it follows every keystroke. Plain
 * text: whatever the sender name holds is shown as text.
 */
export function NoticePreview({ sender, supportContact, portalUrl, sandbox, origin }: { sender: string; supportContact: string | null; portalUrl: string | null; sandbox: boolean; origin: string }) {
  const [milestone, setMilestone] = useState<NoticeMilestone>('order_shipped');
  const [channel, setChannel] = useState<NoticeChannel>('email');
  const [cause, setCause] = useState<NoticeCause>('rejected');
  const message = renderMessage({
    milestone,
    cause: milestone === 'needs_attention' ? cause : null,
    channel,
    sender,
    supportContact,
    portalUrl: portalUrl ?? `${origin}/p/emb_your_embed_key`,
    unsubscribeUrl: `${origin}/unsubscribe?token=…`,
    sandbox,
    shipment: SAMPLE_SHIPMENT,
  });
  const select = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900';
  return (
    <section className={`${card} space-y-3`} aria-labelledby="notice-preview">
      <h2 id="notice-preview" className="font-semibold">Preview</h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="block text-sm font-medium text-slate-700">
          Milestone
          <select className={select} value={milestone} onChange={(e) => setMilestone(e.target.value as NoticeMilestone)} data-testid="preview-milestone">
            {NOTICE_MILESTONES.map((m) => (
              <option key={m} value={m}>{MILESTONE_WORDS[m].label}</option>
            ))}
          </select>
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Channel
          <select className={select} value={channel} onChange={(e) => setChannel(e.target.value as NoticeChannel)} data-testid="preview-channel">
            {NOTICE_CHANNELS.map((c) => (
              <option key={c} value={c}>{CHANNEL_WORDS[c]}</option>
            ))}
          </select>
        </label>
        {milestone === 'needs_attention' && (
          <label className="block text-sm font-medium text-slate-700">
            Cause
            <select className={select} value={cause} onChange={(e) => setCause(e.target.value as NoticeCause)}>
              <option value="rejected">The pharmacy rejected it</option>
              <option value="cancelled">It was cancelled</option>
            </select>
          </label>
        )}
      </div>
      <div className="rounded-md border border-slate-200 bg-slate-50 p-3" data-testid="notice-preview-message">
        {message.subject !== null && (
          <p className="text-sm">
            <span className="font-medium text-slate-600">Subject: </span>
            <span data-testid="preview-subject" className="break-words">{message.subject}</span>
          </p>
        )}
        <pre data-testid="preview-text" className="mt-2 font-sans text-sm break-words whitespace-pre-wrap text-slate-900">{message.text}</pre>
      </div>
      <p className="text-xs text-slate-600">
        Messages name your clinic, the milestone and the patient portal, and never a medication, condition, answer, date of birth or address. Each ends with a link that stops that channel.
      </p>
    </section>
  );
}
