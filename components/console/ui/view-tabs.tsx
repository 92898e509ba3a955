import Link from 'next/link';

export interface ViewTab {
  href: string;
  label: string;
  active: boolean;
}

/** The underline tabs that switch between an area's views (orders, questionnaires, flows): links, the current one marked for assistive tech. */
export function ViewTabs({ label, tabs }: { label: string; tabs: readonly ViewTab[] }) {
  return (
    <nav aria-label={label} className="flex gap-2 border-b border-slate-200">
      {tabs.map((t) => (
        <Link
          key={t.href}
          href={t.href}
          aria-current={t.active ? 'page' : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${t.active ? 'border-indigo-600 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
