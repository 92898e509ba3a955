import type { ReactNode, Ref } from 'react';

/**
 * The frame of patients' pages: one readable column, mobile first, no console chrome and nothing third-party.
 * `headingRef` lets a page move the focus to its title when its content changes (an outcome after a send).
 */
export function IntakeShell({ title, clinicName, headingRef, children }: { title: string; clinicName?: string; headingRef?: Ref<HTMLHeadingElement>; children: ReactNode }) {
  return (
    <main id="main" className="mx-auto w-full max-w-xl px-4 py-8 sm:py-12">
      {clinicName && <p className="text-sm font-semibold text-indigo-700">{clinicName}</p>}
      <h1 ref={headingRef} tabIndex={headingRef ? -1 : undefined} className="mt-1 mb-6 text-2xl font-semibold text-slate-900 focus:outline-none">
        {title}
      </h1>
      {children}
    </main>
  );
}
