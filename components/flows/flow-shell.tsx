import type { CSSProperties, ReactNode, Ref } from 'react';

/**
 * Tailwind's indigo shades (the questionnaire renderer's accent) follow the flow's primary colour inside the
 * flow, so shared form controls take the clinic's brand without a second set of components. The patient portal
 * (components/portal/) wears the same theme.
 */
export function themeStyle(cssVariables: Record<string, string>): CSSProperties {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(cssVariables)) if (name.startsWith('--nl-flow-')) vars[name] = value;
  return {
    ...vars,
    '--color-indigo-600': 'var(--nl-flow-primary, oklch(51.1% 0.262 276.966))',
    '--color-indigo-700': 'var(--nl-flow-primary, oklch(45.7% 0.24 277.023))',
  } as CSSProperties;
}

interface Props {
  cssVariables: Record<string, string>;
  title: string;
  embedded?: boolean;
  compact?: boolean;
  sandbox?: boolean;
  progress?: { index: number; count: number } | null;
  headingRef?: Ref<HTMLHeadingElement>;
  rootRef?: Ref<HTMLDivElement>;
  children: ReactNode;
}

/**
 * The frame of a flow's pages, shared by `/f/{embedKey}` and `/embed/frame`: one readable column, mobile first,
 * the flow's theme as `--nl-flow-*` variables, the step's title as the page's only h1 (focused when the step
 * changes), and nothing loaded from elsewhere.
 */
export function FlowShell({ cssVariables, title, embedded, compact, sandbox, progress, headingRef, rootRef, children }: Props) {
  return (
    <div
      ref={rootRef}
      style={themeStyle(cssVariables)}
      className={`bg-[var(--nl-flow-background,#f8fafc)] text-[var(--nl-flow-text,#0f172a)] [font-family:var(--nl-flow-font,inherit)] ${embedded ? '' : 'min-h-screen'}`}
    >
      <main id="main" className={`mx-auto w-full max-w-[var(--nl-flow-max-width,36rem)] px-4 ${compact ? 'py-3' : 'py-6 sm:py-10'}`}>
        {sandbox && (
          <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Test mode: this is a sandbox flow. No real prescription will be made.
          </p>
        )}
        {progress && (
          <div className="mb-3">
            <p className="text-sm font-medium text-slate-700">
              Step {progress.index} of {progress.count}
            </p>
            <div aria-hidden="true" className="mt-2 h-1.5 w-full overflow-hidden rounded-full bg-slate-200">
              <div className="h-full rounded-full bg-indigo-700" style={{ width: `${Math.round((progress.index / progress.count) * 100)}%` }} />
            </div>
          </div>
        )}
        <h1 ref={headingRef} tabIndex={-1} className={`mb-6 font-semibold text-[var(--nl-flow-text,#0f172a)] focus:outline-none ${compact ? 'text-xl' : 'text-2xl'}`}>
          {title}
        </h1>
        {children}
      </main>
    </div>
  );
}
