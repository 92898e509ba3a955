import type { QItem, QRule, QuestionnaireDoc } from './questionnaire-types';
import { itemFacts, itemIndex, ruleWords } from './questionnaire-words';

/** One item: its question, then its facts in plain words (type, required, range, options, when shown). */
export function ItemLine({ item, items }: { item: QItem; items: Map<string, QItem> }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="font-medium break-words text-slate-900">{item.text}</p>
      {item.help && <p className="text-slate-500 break-words">{item.help}</p>}
      <p className="text-slate-600 break-words">
        <code className="mr-2 font-mono text-xs text-slate-500">{item.linkId}</code>
        {itemFacts(item, items).join(' · ')}
      </p>
    </div>
  );
}

/** One rule: what it does and when, and what the patient is told. */
export function RuleLine({ rule, items }: { rule: QRule; items: Map<string, QItem> }) {
  return (
    <div className="min-w-0 space-y-0.5">
      <p className="break-words text-slate-900">
        <code className="mr-2 font-mono text-xs text-slate-500">{rule.id}</code>
        <span className={rule.effect === 'disqualify' ? 'font-medium text-red-800' : 'font-medium text-amber-900'}>{ruleWords(rule, items)}</span>
      </p>
      <p className="text-slate-600 break-words">Patient is told: “{rule.patientMessage}”</p>
    </div>
  );
}

/**
 * A questionnaire as a provider reads it before approving: every item with its type, whether it is
 * required, its options and when it shows, then every rule in words with the patient's message.
 */
export function QuestionnairePreview({ doc, headingLevel = 3 }: { doc: QuestionnaireDoc; headingLevel?: 2 | 3 }) {
  const items = itemIndex(doc.items);
  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div data-testid="questionnaire-preview" className="space-y-4 text-sm">
      {doc.description && <p className="break-words text-slate-700">{doc.description}</p>}
      <div className="space-y-2">
        <H className="text-base font-semibold">Questions ({doc.items.length})</H>
        <ol className="list-decimal space-y-3 pl-6">
          {doc.items.map((i) => (
            <li key={i.linkId} data-testid="preview-item">
              <ItemLine item={i} items={items} />
            </li>
          ))}
        </ol>
      </div>
      <div className="space-y-2">
        <H className="text-base font-semibold">Rules ({doc.rules.length})</H>
        {doc.rules.length === 0 ? (
          <p className="text-slate-600">No rules: every complete answer is eligible for a provider’s review.</p>
        ) : (
          <ul className="space-y-3">
            {doc.rules.map((r) => (
              <li key={r.id} data-testid="preview-rule">
                <RuleLine rule={r} items={items} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
