import { diffQuestionnaires, type Changed } from './questionnaire-diff';
import { ItemLine, RuleLine } from './questionnaire-preview';
import type { QItem, QRule, QuestionnaireDoc } from './questionnaire-types';
import { itemIndex } from './questionnaire-words';

const mark = { added: 'border-emerald-300 bg-emerald-50', removed: 'border-red-300 bg-red-50', changed: 'border-amber-300 bg-amber-50' };
const word = { added: 'Added', removed: 'Removed', changed: 'Changed' };

function Entry({ kind, children, testId }: { kind: keyof typeof mark; children: React.ReactNode; testId: string }) {
  return (
    <li data-testid={testId} data-kind={kind} className={`min-w-0 space-y-1 rounded-md border-l-4 px-3 py-2 ${mark[kind]}`}>
      <p className="text-xs font-semibold tracking-wide text-slate-700 uppercase">{word[kind]}</p>
      {children}
    </li>
  );
}

function ChangedPair<T>({ c, render }: { c: Changed<T>; render: (x: T, side: 'before' | 'after') => React.ReactNode }) {
  return (
    <>
      <p className="text-xs text-slate-600">Differs in: {c.fields.join(', ')}</p>
      <div className="grid min-w-0 gap-2 sm:grid-cols-2">
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500">Before</p>
          {render(c.before, 'before')}
        </div>
        <div className="min-w-0">
          <p className="text-xs font-medium text-slate-500">After</p>
          {render(c.after, 'after')}
        </div>
      </div>
    </>
  );
}

/** What changed from `before` to `after`: document fields, then items, then rules, each in words. */
export function QuestionnaireDiffView({ before, after, beforeLabel, afterLabel }: { before: QuestionnaireDoc; after: QuestionnaireDoc; beforeLabel: string; afterLabel: string }) {
  const d = diffQuestionnaires(before, after);
  const oldItems = itemIndex(before.items);
  const newItems = itemIndex(after.items);
  const itemLine = (i: QItem, side: 'before' | 'after') => <ItemLine item={i} items={side === 'before' ? oldItems : newItems} />;
  const ruleLine = (r: QRule, side: 'before' | 'after') => <RuleLine rule={r} items={side === 'before' ? oldItems : newItems} />;
  const count = (s: { added: unknown[]; removed: unknown[]; changed: unknown[] }) => `${s.added.length} added, ${s.removed.length} removed, ${s.changed.length} changed`;
  return (
    <div data-testid="questionnaire-diff" className="space-y-4 text-sm">
      <p className="text-slate-700">
        From <span className="font-medium">{beforeLabel}</span> to <span className="font-medium">{afterLabel}</span>:{' '}
        {d.same ? <span data-testid="diff-same">no differences.</span> : <>questions {count(d.items)}; rules {count(d.rules)}.</>}
      </p>
      {d.document.length > 0 && (
        <ul className="space-y-2">
          {d.document.map((f) => (
            <Entry key={f.field} kind="changed" testId="diff-document">
              <p className="break-words">
                {f.field}: “{f.before ?? '—'}” → “{f.after ?? '—'}”
              </p>
            </Entry>
          ))}
        </ul>
      )}
      {(['items', 'rules'] as const).map((section) => {
        const s = d[section];
        if (s.added.length + s.removed.length + s.changed.length === 0) return null;
        return (
          <div key={section} className="space-y-2">
            <h3 className="font-semibold">{section === 'items' ? 'Questions' : 'Rules'}</h3>
            <ul className="space-y-2">
              {section === 'items' ? (
                <>
                  {d.items.added.map((i) => (
                    <Entry key={`a-${i.linkId}`} kind="added" testId="diff-item">{itemLine(i, 'after')}</Entry>
                  ))}
                  {d.items.removed.map((i) => (
                    <Entry key={`r-${i.linkId}`} kind="removed" testId="diff-item">{itemLine(i, 'before')}</Entry>
                  ))}
                  {d.items.changed.map((c) => (
                    <Entry key={`c-${c.id}`} kind="changed" testId="diff-item"><ChangedPair c={c} render={itemLine} /></Entry>
                  ))}
                </>
              ) : (
                <>
                  {d.rules.added.map((r) => (
                    <Entry key={`a-${r.id}`} kind="added" testId="diff-rule">{ruleLine(r, 'after')}</Entry>
                  ))}
                  {d.rules.removed.map((r) => (
                    <Entry key={`r-${r.id}`} kind="removed" testId="diff-rule">{ruleLine(r, 'before')}</Entry>
                  ))}
                  {d.rules.changed.map((c) => (
                    <Entry key={`c-${c.id}`} kind="changed" testId="diff-rule"><ChangedPair c={c} render={ruleLine} /></Entry>
                  ))}
                </>
              )}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
