import type { QProtocol, QuestionnaireVersion } from './questionnaire-types';
import { FACT_WORDS } from './questionnaire-words';

type ProtocolLine = QProtocol['items'][number];

/** "Semaglutide 0.25 mg, injection": the product as the catalog names it. */
function productWords(l: ProtocolLine): string {
  if (l.productName === null) return `Product ${l.productId} (not found)`;
  return [l.strength ? `${l.productName} ${l.strength}` : l.productName, l.form].filter(Boolean).join(', ');
}

function Line({ line }: { line: ProtocolLine }) {
  return (
    <li data-testid="protocol-line" className="min-w-0 rounded-md border border-slate-200 px-3 py-2">
      <p data-testid="protocol-product" className="font-medium break-words text-slate-900">
        {productWords(line)}
        {line.productActive === false && <span className="font-normal text-red-800"> (inactive product: an approval could not order it)</span>}
      </p>
      <dl className="mt-1 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-slate-700">
        <dt className="text-slate-600">Quantity</dt>
        <dd data-testid="protocol-quantity">{line.quantity}</dd>
        <dt className="text-slate-600">Sig</dt>
        <dd data-testid="protocol-sig" className="break-words">{line.sig}</dd>
        <dt className="text-slate-600">Refills</dt>
        <dd data-testid="protocol-refills">{line.refills}</dd>
      </dl>
    </li>
  );
}

/**
 * What approving a questionnaire version puts a provider's name to besides its questions (DESIGN decision 45):
 * the protocol an eligible submission is prescribed, product by product with strength, quantity, sig and
 * refills, and which questions are also the patient's identity facts (date of birth, sex at birth, state).
 */
export function QuestionnairePrescribes({ version, headingLevel = 3 }: { version: QuestionnaireVersion; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const p = version.protocol;
  const facts = version.document.items.flatMap((i) => (i.fact ? [{ linkId: i.linkId, text: i.text, fact: i.fact }] : []));
  return (
    <div data-testid="questionnaire-prescribes" className="grid gap-4 text-sm md:grid-cols-2">
      <div className="min-w-0 space-y-2">
        <H className="text-base font-semibold">What it prescribes</H>
        {p ? (
          <>
            <p className="break-words text-slate-700">
              Protocol <span data-testid="protocol-name" className="font-semibold text-slate-900">{p.name}</span>
              {!p.active && <span className="text-red-800"> (inactive: an approval could not order from it)</span>}: each eligible patient a provider approves
              is prescribed
            </p>
            <ul className="space-y-2">
              {p.items.map((line, i) => (
                <Line key={`${line.productId}-${i}`} line={line} />
              ))}
            </ul>
            <p className="text-slate-600">Submissions that come through a flow are prescribed the flow’s protocol instead.</p>
          </>
        ) : version.document.protocolId ? (
          <p className="break-words text-slate-700">
            It names the protocol <code className="font-mono text-xs">{version.document.protocolId}</code>, which could not be read.
          </p>
        ) : (
          <p data-testid="protocol-none" className="text-slate-700">No protocol: approving a patient’s submission orders nothing unless a flow names a protocol.</p>
        )}
      </div>
      <div className="min-w-0 space-y-2">
        <H className="text-base font-semibold">Identity facts</H>
        {facts.length > 0 ? (
          <ul className="list-disc space-y-1 pl-5 text-slate-700">
            {facts.map((i) => (
              <li key={i.linkId} data-testid="identity-fact" className="break-words">
                “{i.text}” is the patient’s <span className="font-medium text-slate-900">{FACT_WORDS[i.fact].toLowerCase()}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p data-testid="identity-facts-none" className="text-slate-700">No question is an identity fact: date of birth, sex at birth and state come from the patient’s details.</p>
        )}
      </div>
    </div>
  );
}
