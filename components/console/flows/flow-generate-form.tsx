'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { apiErrorOf, useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { QueryError } from '../ui/query-state';

/** The reasons a refused draft lists (422 draft_invalid), each a sentence; other details are not shown. */
function reasonsOf(error: unknown): string[] {
  const details = apiErrorOf(error).data?.details ?? [];
  return details.map((d) => (typeof d === 'string' ? d : typeof d === 'object' && d && 'message' in d && typeof d.message === 'string' ? d.message : null)).filter((m): m is string => !!m);
}

/**
 * A draft flow from a description: copy, theme and a marketing quiz around the best-matching approved
 * questionnaire, saved as an AI draft and opened in the editor. Nothing is published; the clinical steps
 * come from the approved questionnaire unchanged.
 */
export function FlowGenerateForm() {
  const id = useId();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const [description, setDescription] = useState('');
  const generate = useMutation(
    trpc.flows.generate.mutationOptions({
      onSuccess: async (flow) => {
        await qc.invalidateQueries({ queryKey: trpc.flows.list.queryKey() });
        router.push(`/flows/${flow.id}`);
      },
    }),
  );
  const reasons = generate.isError ? reasonsOf(generate.error) : [];
  return (
    <form
      aria-label="Draft a flow with AI"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        generate.mutate({ description: description.trim() });
      }}
    >
      <div>
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-slate-700">
          Describe the flow
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          The offer, the audience and the tone, in plain words; no patient details. The draft is never published by itself.
        </p>
        <textarea
          id={`${id}-description`}
          rows={3}
          required
          minLength={10}
          maxLength={4000}
          value={description}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setDescription(e.target.value)}
          className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
        />
      </div>
      {generate.isError && (
        <div className="space-y-1">
          <QueryError error={generate.error} title="No draft was saved." />
          {reasons.length > 0 && (
            <ul className="list-disc pl-5 text-sm text-red-800">
              {reasons.map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <BusyButton type="submit" variant="secondary" busy={generate.isPending} busyLabel="Drafting…">
        Draft with AI
      </BusyButton>
    </form>
  );
}
