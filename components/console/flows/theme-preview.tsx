import type { CSSProperties } from 'react';
import type { FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { contactStepSummary } from './flow-steps';
import { themeStyle, type ThemeTokens } from './theme-tokens';

const v = (token: string) => `var(--nl-flow-${token})`;

function Button({ label }: { label: string }) {
  return (
    <span
      className="mt-4 inline-block px-4 py-2 text-sm font-semibold"
      style={{ background: v('primary'), color: v('primary-contrast'), borderRadius: v('radius') }}
    >
      {label}
    </span>
  );
}

function StepBody({ step }: { step: FlowStepShape }) {
  const title = (text: string) => <p className="text-xl font-semibold">{text}</p>;
  const body = (text?: string) => (text ? <p className="mt-2 whitespace-pre-line text-sm" style={{ color: v('muted') }}>{text}</p> : null);
  switch (step.kind) {
    case 'landing':
      return (
        <>
          {title(step.blocks.headline)}
          {body(step.blocks.body)}
          <Button label={step.blocks.cta ?? 'Continue'} />
        </>
      );
    case 'quiz':
      return (
        <>
          {title(step.blocks.title)}
          {body(step.blocks.body)}
          <ul className="mt-3 space-y-1 text-sm">
            {step.questions.map((q) => (
              <li key={q.id}>• {q.text}</li>
            ))}
          </ul>
          <Button label={step.blocks.cta ?? 'Next'} />
        </>
      );
    case 'outcome':
      return (
        <>
          {title(step.blocks.eligibleTitle)}
          {body(step.blocks.eligibleBody)}
          {step.blocks.cta && <Button label={step.blocks.cta} />}
        </>
      );
    case 'consent':
      return (
        <>
          {title(step.title)}
          {body(step.text)}
          <Button label="I agree" />
        </>
      );
    default:
      return (
        <>
          {title(step.title)}
          {body(step.kind === 'medical' ? `${step.linkIds.length} questionnaire item(s) from the approved questionnaire.` : contactStepSummary())}
          <Button label="Continue" />
        </>
      );
  }
}

/**
 * The selected step as a patient would see it, drawn with the same `--nl-flow-*` variables the hosted page
 * sets, so a token typed in the editor shows here at once.
 */
export function ThemePreview({ tokens, step }: { tokens: ThemeTokens; step: FlowStepShape | undefined }) {
  const style = { ...themeStyle(tokens), background: v('background'), color: v('text'), fontFamily: v('font') } as CSSProperties;
  return (
    <figure className="space-y-2">
      <figcaption className="text-sm font-semibold text-slate-800">Live preview</figcaption>
      <div data-testid="theme-preview" style={style} className="overflow-hidden rounded-lg border border-slate-200 p-4">
        <div className="mx-auto p-5 shadow-sm" style={{ background: v('surface'), borderRadius: v('radius'), maxWidth: v('max-width') }}>
          {step ? <StepBody step={step} /> : <p>No step selected.</p>}
        </div>
      </div>
    </figure>
  );
}
