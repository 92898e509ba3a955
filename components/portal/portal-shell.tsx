import type { ReactNode } from 'react';
import { themeStyle } from '@/components/flows/flow-shell';
import type { PortalInfo } from './portal-types';

/**
 * The frame of every portal page (DESIGN decision 39): the clinic's name and theme (its flow's `--nl-flow-*`
 * tokens, as on /f/{embedKey}), one readable column, phone first, the page's title as its only h1, and a place
 * for the signed-in patient's sign-out. Nothing is loaded from anywhere else.
 */
export function PortalShell({ info, title, actions, children }: { info: PortalInfo; title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div style={themeStyle(info.theme.cssVariables)} className="min-h-screen bg-[var(--nl-flow-background,#f8fafc)] text-[var(--nl-flow-text,#0f172a)] [font-family:var(--nl-flow-font,inherit)]">
      <header className="border-b border-slate-200 bg-[var(--nl-flow-surface,#fff)]">
        <div className="mx-auto flex w-full max-w-[var(--nl-flow-max-width,36rem)] items-center justify-between gap-3 px-4 py-3">
          <p className="min-w-0 text-base font-semibold break-words text-indigo-700">
            {info.clinicName}
            <span className="block text-sm font-normal text-slate-600">Patient portal</span>
          </p>
          {actions}
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-[var(--nl-flow-max-width,36rem)] px-4 py-6 sm:py-10">
        {!info.livemode && (
          <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            Test mode: this is a sandbox portal with test patients only.
          </p>
        )}
        <h1 className="mb-6 text-2xl font-semibold break-words">{title}</h1>
        {children}
      </main>
    </div>
  );
}
