'use client';

import { QueryError } from '@/components/console/ui/query-state';
import type { Draft, DraftCondition } from './draft';
import { messageId, useProblems, type PlacedProblem } from './problems';
import type { DocumentCheck } from './use-document-check';

const DOC_FIELDS: Record<string, string> = { key: 'Key', title: 'Title', description: 'Description', protocolId: 'Protocol', items: 'Questions', rules: 'Rules', '': 'Questionnaire' };

const holds = (c: DraftCondition, uid: string): boolean => c.uid === uid || (c.kind === 'group' && c.children.some((x) => holds(x, uid)));

/** Where a problem is, in words: "Question 2 (dob), condition", "Rule 1", "Title". */
function whereIs(p: PlacedProblem, d: Draft): string {
  const { uid, field } = p.place;
  if (uid === 'doc') return DOC_FIELDS[field] ?? field;
  const i = d.items.findIndex((x) => x.uid === uid || x.options.some((o) => o.uid === uid) || (x.enableWhen !== null && holds(x.enableWhen, uid)));
  if (i >= 0) {
    const item = d.items[i]!;
    const part = item.uid === uid ? '' : item.options.some((o) => o.uid === uid) ? `, option ${item.options.findIndex((o) => o.uid === uid) + 1}` : ', condition';
    return `Question ${i + 1}${item.linkId ? ` (${item.linkId})` : ''}${part}`;
  }
  const r = d.rules.findIndex((x) => x.uid === uid || holds(x.when, uid));
  if (r >= 0) return `Rule ${r + 1}${d.rules[r]!.uid === uid ? '' : ', condition'}`;
  return 'Questionnaire';
}

/**
 * The outcome of the last check, above the editor: "no problems" with the version publishing would make,
 * or every problem, each a link to the message beside what it concerns. Only the one-line state is a live
 * region, so a screen reader hears "3 problems" rather than the whole list at every pause in typing.
 */
export function ProblemSummary({ check, draft }: { check: DocumentCheck; draft: Draft }) {
  const problems = useProblems().all;
  const state = check.error
    ? 'The questionnaire could not be checked.'
    : check.busy
      ? 'Checking…'
      : !check.checked
        ? 'Not checked yet: it is checked as you edit.'
        : check.result
          ? check.result.existingVersion !== null
            ? `No problems: version ${check.result.existingVersion} of ${check.result.key} has exactly this content, so publishing makes no new version.`
            : `No problems: publishing makes version ${check.result.nextVersion} of ${check.result.key}.`
          : `${problems.length === 1 ? '1 problem' : `${problems.length} problems`} to fix before publishing.`;
  return (
    <section aria-labelledby="qb-check" data-testid="builder-check" className={`rounded-lg border p-4 ${problems.length && !check.result ? 'border-red-300 bg-red-50' : 'border-slate-200 bg-slate-50'}`}>
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="qb-check" className="text-base font-semibold">
          Check
        </h2>
        <p role="status" data-testid="builder-check-state" className="mr-auto text-sm text-slate-800">
          {state}
        </p>
        <button type="button" onClick={check.recheck} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-700 shadow-sm hover:bg-slate-50">
          Check now
        </button>
      </div>
      {check.result?.sameAsApproved && (
        <p className="mt-2 text-sm text-amber-900">It is identical to version {check.result.approvedVersion}, the version in use: there is nothing new for a provider to approve.</p>
      )}
      {check.error !== null && (
        <div className="mt-2">
          <QueryError error={check.error} />
        </div>
      )}
      {!check.result && problems.length > 0 && (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-red-900">
          {problems.map((p, i) => (
            <li key={i} className="break-words">
              <a href={`#${messageId(p.place.uid, p.place.field)}`} className="font-medium underline">
                {whereIs(p, draft)}
              </a>
              : {p.short}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
