'use client';

import Link from 'next/link';
import { apiErrorOf } from '@/web/trpc/client';
import { PROTOCOL_FIELD_ID, PROTOCOLS_HREF } from './flow-protocol-setting';

interface ProblemLink {
  href: string;
  label: string;
}

export interface PublishProblem {
  /** What is missing, in the admin's words. */
  text: string;
  links: ProblemLink[];
}

const toProtocol: ProblemLink = { href: `#${PROTOCOL_FIELD_ID}`, label: 'Settings → Protocol' };
const createProtocol: ProblemLink = { href: PROTOCOLS_HREF, label: 'Create a protocol' };

/**
 * A refused publication (POST /flows/{id}/publish) in words an admin acts on, with the pages to act on: the
 * API's code and field decide the words (they are stable); the API's own message is kept for the rest (a
 * medical page that misses a question names the step and question already).
 */
export function publishProblem(error: unknown, questionnaireKey: string): PublishProblem {
  const { message, data } = apiErrorOf(error);
  const questionnaire = `/intake/questionnaires/${encodeURIComponent(questionnaireKey)}`;
  switch (data?.code) {
    case 'protocol_required':
      return { text: 'Choose the protocol this flow prescribes (Settings → Protocol): it is what a provider’s approval of a patient orders.', links: [toProtocol, createProtocol] };
    case 'unknown_protocol':
      return { text: 'The protocol chosen for this flow is not one of this clinic’s protocols in this mode. Choose another (Settings → Protocol).', links: [toProtocol, createProtocol] };
    case 'protocol_inactive':
      return { text: 'The protocol this flow prescribes is inactive. Choose an active one (Settings → Protocol), or create one.', links: [toProtocol, createProtocol] };
    case 'questionnaire_not_approved':
      return {
        text: `Questionnaire ${questionnaireKey} has no approved version in this mode yet: publish it for approval, and a provider approves it on the Questionnaires page.`,
        links: [
          { href: questionnaire, label: `Questionnaire ${questionnaireKey}` },
          { href: '/intake/questionnaires/pending', label: 'Waiting for approval' },
        ],
      };
    case 'invalid_flow':
      return { text: `The medical steps do not match the questionnaire. ${message}`, links: [{ href: questionnaire, label: `Questionnaire ${questionnaireKey}` }] };
    default:
      if (data?.param?.startsWith('settings.conversionPostbacks')) return { text: `A conversion postback address is refused: ${message}`, links: [] };
      return { text: message, links: [] };
  }
}

/** The refusal under the Publish button: what is missing, where to fix it, and the request id to quote. */
export function PublishError({ error, questionnaireKey }: { error: unknown; questionnaireKey: string }) {
  const problem = publishProblem(error, questionnaireKey);
  const { data } = apiErrorOf(error);
  return (
    <div role="alert" data-testid="publish-error" data-code={data?.code} className="space-y-1 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-semibold">The flow was not published; nothing changed.</p>
      <p data-testid="publish-error-text" className="break-words">
        {problem.text}
      </p>
      {problem.links.length > 0 && (
        <p className="flex flex-wrap gap-x-4 gap-y-1">
          {problem.links.map((l) =>
            l.href.startsWith('#') ? (
              <a key={l.href} href={l.href} onClick={() => document.getElementById(l.href.slice(1))?.focus()} className="font-medium text-red-900 underline">
                {l.label}
              </a>
            ) : (
              <Link key={l.href} href={l.href} className="font-medium text-red-900 underline">
                {l.label}
              </Link>
            ),
          )}
        </p>
      )}
      {data?.request_id && <p className="font-mono text-xs text-red-700">Request {data.request_id}</p>}
    </div>
  );
}
