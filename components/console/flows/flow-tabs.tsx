import Link from 'next/link';

/** The flows area's views: the flows themselves and the keys that embed them. */
export function FlowTabs({ active }: { active: 'flows' | 'keys' }) {
  const tab = (on: boolean) =>
    `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${on ? 'border-indigo-600 text-slate-900' : 'border-transparent text-slate-600 hover:text-slate-900'}`;
  return (
    <nav aria-label="Flow views" className="flex gap-2 border-b border-slate-200">
      <Link href="/flows" aria-current={active === 'flows' ? 'page' : undefined} className={tab(active === 'flows')}>
        Flows
      </Link>
      <Link href="/embed-keys" aria-current={active === 'keys' ? 'page' : undefined} className={tab(active === 'keys')}>
        Embed keys
      </Link>
    </nav>
  );
}
