'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';
import { NOTICE_CHANNELS, NOTICE_MILESTONES, type NoticeChannel, type NoticeMilestone } from '@/server/domain/notices/shared/milestones';
import { ApiRefusal, FieldMessage } from '../catalog/catalog-errors';
import { BusyButton, card } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { NoticePreview } from './notice-preview';
import { CHANNEL_WORDS, DELIVERY_WORDS, MILESTONE_WORDS } from './notice-words';

type Settings = inferRouterOutputs<AppRouter>['notices']['getNoticeSettings'];
type Switches = Settings['milestones'];

export function NoticeSettingsPage({ origin }: { origin: string }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.notices.getNoticeSettings.queryOptions({}));
  if (settings.isError) return <QueryError error={settings.error} title="The notice settings could not be read." />;
  if (!settings.data) return <Loading label="Loading notice settings…" />;
  return <NoticeSettingsEditor settings={settings.data} origin={origin} />;
}

/** Milestones × channels, the sender name and the support contact, with a preview that follows the form. */
function NoticeSettingsEditor({ settings, origin }: { settings: Settings; origin: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [switches, setSwitches] = useState<Switches>(settings.milestones);
  const [senderName, setSenderName] = useState(settings.senderName ?? '');
  const [supportContact, setSupportContact] = useState(settings.supportContact ?? '');
  const [saved, setSaved] = useState<string>();
  const save = useMutation(
    trpc.notices.updateNoticeSettings.mutationOptions({
      onMutate: () => setSaved(undefined),
      onSuccess: (answer) => {
        setSaved(`Notice settings saved (${formatDateTime(answer.updatedAt)}).`);
        return qc.invalidateQueries({ queryKey: trpc.notices.getNoticeSettings.queryKey() });
      },
    }),
  );
  const toggle = (m: NoticeMilestone, c: NoticeChannel) => {
    setSwitches((old) => ({ ...old, [m]: { ...old[m], [c]: !old[m][c] } }));
    setSaved(undefined);
  };
  function submit(e: React.FormEvent) {
    e.preventDefault();
    save.mutate({ milestones: switches, senderName: senderName.trim() || null, supportContact: supportContact.trim() || null });
  }
  const input = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <form onSubmit={submit} className={`${card} space-y-5`} aria-labelledby="notice-settings">
        <div className="flex flex-wrap items-baseline gap-3">
          <h2 id="notice-settings" className="font-semibold">What patients hear</h2>
          <span className="text-xs text-slate-600">{settings.updatedAt ? `Last changed ${formatDateTime(settings.updatedAt)}` : 'Defaults (never changed)'}</span>
        </div>
        <table className="w-full text-sm">
          <caption className="sr-only">Notices sent at each milestone, by channel</caption>
          <thead>
            <tr className="text-left text-xs text-slate-600 uppercase">
              <th scope="col" className="py-1 pr-2 font-medium">Milestone</th>
              {NOTICE_CHANNELS.map((c) => (
                <th key={c} scope="col" className="w-16 py-1 text-center font-medium">{CHANNEL_WORDS[c]}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTICE_MILESTONES.map((m) => (
              <tr key={m} className="border-t border-slate-100 align-top">
                <th scope="row" className="py-2 pr-2 text-left font-normal">
                  <span className="block font-medium text-slate-900">{MILESTONE_WORDS[m].label}</span>
                  <span className="block text-xs text-slate-600">{MILESTONE_WORDS[m].when}</span>
                </th>
                {NOTICE_CHANNELS.map((c) => (
                  <td key={c} className="py-2 text-center">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      checked={switches[m][c]}
                      onChange={() => toggle(m, c)}
                      aria-label={`${CHANNEL_WORDS[c]}: ${MILESTONE_WORDS[m].label}`}
                      data-testid={`switch-${m}-${c}`}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-xs text-slate-600">
          Texts go only to patients who gave a phone number and ticked the consent box. E-mails are {DELIVERY_WORDS[settings.delivery.email]}; texts are {DELIVERY_WORDS[settings.delivery.sms]}.
        </p>
        <label className="block text-sm font-medium text-slate-700">
          Sender name
          <input className={input} value={senderName} maxLength={80} placeholder={settings.clinicName} onChange={(e) => { setSenderName(e.target.value); setSaved(undefined); }} data-testid="sender-name" />
          <span className="mt-1 block text-xs font-normal text-slate-600">Empty: your clinic’s name, {settings.clinicName}.</span>
        </label>
        <FieldMessage error={save.error} field="senderName" />
        <label className="block text-sm font-medium text-slate-700">
          Support contact
          <input className={input} value={supportContact} maxLength={200} placeholder="care@yourclinic.com or (555) 010-0100" onChange={(e) => { setSupportContact(e.target.value); setSaved(undefined); }} data-testid="support-contact" />
          <span className="mt-1 block text-xs font-normal text-slate-600">Shown in every message as where to ask questions. Empty: none.</span>
        </label>
        <FieldMessage error={save.error} field="supportContact" />
        <ApiRefusal error={save.error} fields={['senderName', 'supportContact']} />
        {saved && <p role="status" data-testid="notice-settings-status" className="text-sm text-emerald-800">{saved}</p>}
        <BusyButton type="submit" busy={save.isPending} busyLabel="Saving…">Save notice settings</BusyButton>
      </form>
      <NoticePreview sender={senderName.trim() || settings.clinicName} supportContact={supportContact.trim() || null} portalUrl={settings.portalUrl} sandbox={!settings.livemode} origin={origin} />
    </div>
  );
}
