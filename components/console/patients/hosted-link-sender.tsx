'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, card } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import { QueryError } from '../ui/query-state';

/**
 * Sends the patient a one-time link to answer an approved questionnaire (`/i/{token}`, mailed by the
 * service, valid 7 days, single use). The link itself is never shown here: it is a bearer secret that
 * lets anyone holding it answer for the patient, so it goes only to the patient's own e-mail.
 */
export function HostedLinkSender({ patientId, hasEmail }: { patientId: string; hasEmail: boolean }) {
  const trpc = useTRPC();
  const questionnaires = useQuery(trpc.intake.listQuestionnaires.queryOptions({}));
  const [key, setKey] = useState('');
  const send = useMutation(trpc.intake.createHostedLink.mutationOptions());
  const selectId = useId();
  const whyId = useId();
  const options = questionnaires.data ?? [];
  const chosen = key || options[0]?.key || '';
  return (
    <section aria-labelledby={`${selectId}-h`} className={`${card} space-y-3`}>
      <h2 id={`${selectId}-h`} className="text-xl font-semibold">Send an intake questionnaire</h2>
      <p className="text-sm text-slate-600">The patient gets an e-mail with a one-time link to answer it on any device; the link lasts 7 days. Their answers arrive in the intake review queue.</p>
      {questionnaires.isError ? (
        <QueryError error={questionnaires.error} title="The questionnaires could not be read." />
      ) : questionnaires.isSuccess && options.length === 0 ? (
        <p className="text-sm text-slate-600">No questionnaire is approved in this mode yet, so there is nothing to send.</p>
      ) : (
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) send.mutate({ patientId, questionnaireKey: chosen });
          }}
        >
          <div className="min-w-0">
            <label htmlFor={selectId} className="block text-sm font-medium text-slate-700">Questionnaire</label>
            <select
              id={selectId}
              value={chosen}
              disabled={!questionnaires.isSuccess}
              onChange={(e) => {
                setKey(e.target.value);
                send.reset();
              }}
              className="mt-1 block max-w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
            >
              {options.map((q) => (
                <option key={q.id} value={q.key}>{q.title} (v{q.version})</option>
              ))}
            </select>
          </div>
          <BusyButton type="submit" busy={send.isPending} busyLabel="Sending…" disabled={!hasEmail || !chosen} aria-describedby={hasEmail ? undefined : whyId}>
            Send link
          </BusyButton>
          {!hasEmail && (
            <span id={whyId} data-testid="hosted-link-blocked" className="text-sm text-slate-600">The patient has no e-mail address on file; add one to send a link.</span>
          )}
        </form>
      )}
      {send.isSuccess && (
        <p role="status" data-testid="hosted-link-sent" className="text-sm text-emerald-800">
          Sent to the patient’s e-mail. The link works once, until {formatDateTime(send.data.expiresAt)}.
        </p>
      )}
      {send.isError && (
        <div data-testid="hosted-link-error">
          <QueryError error={send.error} title="The link was not sent." />
        </div>
      )}
    </section>
  );
}
