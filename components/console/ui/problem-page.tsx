import Link from 'next/link';

/** The frame of the console's 404 and error pages: what happened, in a sentence, and where to go next. */
export function ProblemPage({ code, title, children, actions }: { code: string; title: string; children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <section aria-labelledby="problem-title" className="mx-auto max-w-xl py-10 text-center">
      <p className="text-sm font-semibold text-indigo-700">{code}</p>
      <h1 id="problem-title" className="mt-2 text-2xl font-semibold text-slate-900">
        {title}
      </h1>
      <div className="mt-3 text-sm text-slate-600">{children}</div>
      <div className="mt-6 flex flex-wrap items-center justify-center gap-3">{actions}</div>
    </section>
  );
}

export function HomeLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500">
      {children}
    </Link>
  );
}
