import { diffQuestionnaires, type Changed } from './questionnaire-diff';
import { ItemLine, RuleLine } from './questionnaire-preview';
import type { QItem, QRule, QuestionnaireDoc } from './questionnaire-types';
import { itemFacts, itemIndex, ruleWords } from './questionnaire-words';
import { FieldDiff } from '../ui/word-diff';

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

/** A changed item, word by word: its question, help and facts (type, range, options, when shown). */
function ChangedItem({ c, oldItems, newItems }: { c: Changed<QItem>; oldItems: Map<string, QItem>; newItems: Map<string, QItem> }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="text-xs text-slate-600">
        <code className="mr-2 font-mono text-slate-500">{c.id}</code>Differs in: {c.fields.join(', ')}
      </p>
      <FieldDiff label="Question" before={c.before.text} after={c.after.text} />
      {(c.before.help || c.after.help) && <FieldDiff label="Help" before={c.before.help ?? ''} after={c.after.help ?? ''} />}
      <FieldDiff label="Answer" before={itemFacts(c.before, oldItems).join(' · ')} after={itemFacts(c.after, newItems).join(' · ')} />
    </div>
  );
}

/** A changed rule, word by word: what it does and when, and what the patient is told. */
function ChangedRule({ c, oldItems, newItems }: { c: Changed<QRule>; oldItems: Map<string, QItem>; newItems: Map<string, QItem> }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="text-xs text-slate-600">
        <code className="mr-2 font-mono text-slate-500">{c.id}</code>Differs in: {c.fields.join(', ')}
      </p>
      <FieldDiff label="Rule" before={ruleWords(c.before, oldItems)} after={ruleWords(c.after, newItems)} />
      <FieldDiff label="Patient is told" before={c.before.patientMessage} after={c.after.patientMessage} />
    </div>
  );
}

/** What changed from `before` to `after`: document fields, then items, then rules, each in words; a change marked word by word. */
export function QuestionnaireDiffView({ before, after, beforeLabel, afterLabel }: { before: QuestionnaireDoc; after: QuestionnaireDoc; beforeLabel: string; afterLabel: string }) {
  const d = diffQuestionnaires(before, after);
  const oldItems = itemIndex(before.items);
  const newItems = itemIndex(after.items);
  const itemLine = (i: QItem, side: 'before' | 'after') => <ItemLine item={i} items={side === 'before' ? oldItems : newItems} />;
  const ruleLine = (r: QRule, side: 'before' | 'after') => <RuleLine rule={r} items={side === 'before' ? oldItems : newItems} />;
  const sides = { oldItems, newItems };
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
              <FieldDiff label={f.field} before={f.before ?? ''} after={f.after ?? ''} />
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
                    <Entry key={`c-${c.id}`} kind="changed" testId="diff-item"><ChangedItem c={c} {...sides} /></Entry>
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
                    <Entry key={`c-${c.id}`} kind="changed" testId="diff-rule"><ChangedRule c={c} {...sides} /></Entry>
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
