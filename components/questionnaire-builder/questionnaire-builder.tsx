'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { QuestionnaireStatusBadge } from '@/components/console/intake/intake-ui';
import { Loading, QueryError } from '@/components/console/ui/query-state';
import type { QuestionnaireDoc, QuestionnaireRecord, QuestionnaireVersion } from '@/components/console/intake/questionnaire-types';
import { useTRPC } from '@/web/trpc/client';
import { BuilderPreview } from './builder-preview';
import { DocumentFields } from './document-fields';
import { emptyDraft, loadDraft, move, newItem, newRule, renameOptionValue, type Draft } from './draft';
import { ItemEditor } from './item-editor';
import { ProblemSummary } from './problem-summary';
import { indexProblems, placeProblems, ProblemsContext } from './problems';
import { RuleEditor } from './rule-editor';
import { build } from './serialize';
import { useDocumentCheck } from './use-document-check';

/**
 * The console's questionnaire builder (issue 33, item 9): a new questionnaire, or the next version of an
 * existing one starting from its newest version. The document is checked by the API's own validator as it
 * is edited (a dry run that writes nothing), each problem shown beside what it concerns; the preview is the
 * patients' form; Publish stores it `pending` until a provider approves it on the pending page, where the
 * changes against the version in use are shown.
 */
export function QuestionnaireBuilder({ fromKey, canPickProtocol }: { fromKey?: string; canPickProtocol: boolean }) {
  const trpc = useTRPC();
  const versions = useQuery({ ...trpc.intake.questionnaireVersions.queryOptions({ key: fromKey ?? '' }), enabled: fromKey !== undefined });
  if (fromKey === undefined) return <BuilderEditor initial={emptyDraft()} canPickProtocol={canPickProtocol} />;
  if (versions.isPending) return <Loading label="Loading the questionnaire…" />;
  if (versions.isError) return <QueryError error={versions.error} title="The questionnaire could not be read." />;
  const latest = [...versions.data].sort((a, b) => b.version - a.version)[0];
  if (!latest) return <p className="text-sm text-slate-600">No questionnaire has the key {fromKey} in this mode.</p>;
  return <BuilderEditor key={latest.id} initial={loadDraft(latest.document)} from={latest} canPickProtocol={canPickProtocol} />;
}

function BuilderEditor({ initial, from, canPickProtocol }: { initial: Draft; from?: QuestionnaireVersion; canPickProtocol: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [draft, setDraft] = useState(initial);
  const [view, setView] = useState<'edit' | 'preview'>('edit');
  const [published, setPublished] = useState<QuestionnaireRecord[]>([]);
  const built = build(draft);
  const check = useDocumentCheck(built, { atOnce: from !== undefined });
  const problems = indexProblems(placeProblems(check.problems, check.places));

  const publish = useMutation(
    trpc.intake.publishQuestionnaire.mutationOptions({
      onSuccess: (v, sent) => {
        setPublished((list) => [v, ...list]);
        setSavedJson(JSON.stringify(sent));
        check.recheck();
        return qc.invalidateQueries({ queryKey: trpc.intake.questionnaireVersions.queryKey() });
      },
      onError: (e) => check.adopt(e, built),
    }),
  );

  const setItems = (items: Draft['items']) => setDraft((d) => ({ ...d, items }));
  const setRules = (rules: Draft['rules']) => setDraft((d) => ({ ...d, rules }));
  /** Moves the focus to a question's or rule's heading once it is on screen (after adding, moving or removing). */
  const focusHeading = (uid: string | undefined, fallback: string) =>
    requestAnimationFrame(() => (document.getElementById(`${uid}-heading`) ?? document.getElementById(fallback))?.focus());
  const addItem = () => {
    const item = newItem(draft.items);
    setItems([...draft.items, item]);
    focusHeading(item.uid, 'qb-items');
  };
  const addRule = () => {
    const rule = newRule(draft.rules);
    setRules([...draft.rules, rule]);
    focusHeading(rule.uid, 'qb-rules');
  };
  const valid = check.result !== null && check.fresh;
  const json = JSON.stringify(built.doc);
  const [savedJson, setSavedJson] = useState(json);
  useLeaveWarning(json !== savedJson);

  return (
    <ProblemsContext.Provider value={problems}>
      <div className="space-y-6">
        {from && (
          <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
            Starting from version {from.version} of <code className="min-w-0 font-mono text-xs break-all">{from.key}</code>
            <QuestionnaireStatusBadge status={from.status} />. Publishing makes a new version; version {from.version} stays as it is.
          </p>
        )}
        <div role="status" className="space-y-2">
          {published.map((v) => (
            <p key={v.id} data-testid="builder-published" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
              {v.status === 'approved' ? (
                <>Unchanged: version {v.version} of {v.key}, the version in use, has exactly this content, so no new version was made.</>
              ) : (
                <>
                  Published version {v.version} of {v.key} for approval: it is pending until a provider approves it.{' '}
                  <Link href="/intake/questionnaires/pending" className="font-semibold underline">
                    See the versions pending approval
                  </Link>
                </>
              )}
            </p>
          ))}
        </div>
        <ProblemSummary check={check} draft={draft} />
        <div role="group" aria-label="Builder view" className="flex gap-2 border-b border-slate-200">
          {(['edit', 'preview'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${view === v ? 'border-indigo-600 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
            >
              {v === 'edit' ? 'Edit' : 'Preview as a patient'}
            </button>
          ))}
        </div>
        {view === 'preview' ? (
          valid ? (
            <BuilderPreview doc={built.doc as unknown as QuestionnaireDoc} />
          ) : (
            <p className="text-sm text-slate-700">{check.busy ? 'Checking the questionnaire…' : 'The preview shows once the questionnaire has no problems: fix the ones listed above.'}</p>
          )
        ) : (
          <>
            <DocumentFields draft={draft} onChange={setDraft} locked={from !== undefined} canPickProtocol={canPickProtocol} />
            <section aria-labelledby="qb-items" className="space-y-3">
              <h2 id="qb-items" tabIndex={-1} className="text-lg font-semibold">
                Questions ({draft.items.length})
              </h2>
              <ol className="space-y-4">
                {draft.items.map((item, i) => (
                  <ItemEditor
                    key={item.uid}
                    item={item}
                    index={i}
                    items={draft.items}
                    onChange={(next) => setItems(draft.items.map((x) => (x.uid === item.uid ? next : x)))}
                    onOptionRenamed={(a, b) => setDraft((d) => renameOptionValue(d, item.uid, a, b))}
                    onMove={(to) => {
                      setItems(move(draft.items, i, to));
                      focusHeading(item.uid, 'qb-items');
                    }}
                    onRemove={() => {
                      setItems(draft.items.filter((x) => x.uid !== item.uid));
                      focusHeading((draft.items[i + 1] ?? draft.items[i - 1])?.uid, 'qb-items');
                    }}
                  />
                ))}
              </ol>
              <button type="button" onClick={addItem} className="rounded-md border border-indigo-300 bg-white px-3 py-2 text-sm font-semibold text-indigo-700 shadow-sm hover:bg-indigo-50">
                Add a question
              </button>
            </section>
            <section aria-labelledby="qb-rules" className="space-y-3">
              <h2 id="qb-rules" tabIndex={-1} className="text-lg font-semibold">
                Rules ({draft.rules.length})
              </h2>
              <p className="text-sm text-slate-600">A disqualifying rule stops the patient; a review flag lets the answers through, marked for the provider. Without rules, every complete answer goes to a provider.</p>
              <ol className="space-y-4">
                {draft.rules.map((rule, r) => (
                  <RuleEditor
                    key={rule.uid}
                    rule={rule}
                    index={r}
                    count={draft.rules.length}
                    items={draft.items}
                    onChange={(next) => setRules(draft.rules.map((x) => (x.uid === rule.uid ? next : x)))}
                    onMove={(to) => {
                      setRules(move(draft.rules, r, to));
                      focusHeading(rule.uid, 'qb-rules');
                    }}
                    onRemove={() => {
                      setRules(draft.rules.filter((x) => x.uid !== rule.uid));
                      focusHeading((draft.rules[r + 1] ?? draft.rules[r - 1])?.uid, 'qb-rules');
                    }}
                  />
                ))}
              </ol>
              <button type="button" onClick={addRule} className="rounded-md border border-indigo-300 bg-white px-3 py-2 text-sm font-semibold text-indigo-700 shadow-sm hover:bg-indigo-50">
                Add a rule
              </button>
            </section>
          </>
        )}
        <section aria-labelledby="qb-publish" className="space-y-2 border-t border-slate-200 pt-4">
          <h2 id="qb-publish" className="text-lg font-semibold">
            Publish
          </h2>
          <p className="text-sm text-slate-600">Publishing stores this as the next version, pending: patients keep answering the version in use until a provider approves it.</p>
          {publish.isError && !check.claims(publish.error) && <QueryError error={publish.error} title="The questionnaire was not published." />}
          <button
            type="button"
            disabled={publish.isPending}
            aria-busy={publish.isPending || undefined}
            onClick={() => publish.mutate(built.doc)}
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
          >
            {publish.isPending ? 'Publishing…' : 'Publish for a provider’s approval'}
          </button>
        </section>
      </div>
    </ProblemsContext.Provider>
  );
}

/** Asks before the tab is closed or reloaded while edits are not published: the builder keeps no draft of its own. */
function useLeaveWarning(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);
}
