import type { ConsoleMe } from '@/lib/console/types';
import { ModeSwitch } from './mode-switch';
import { NavLinks } from './nav-links';
import { SignOutButton } from './sign-out-button';

// Only pages that exist; a page needing a scope shows only to roles that hold it.
const NAV = [
  { href: '/console', label: 'Overview' },
  { href: '/orders', label: 'Orders', scope: 'orders.read' },
  { href: '/products', label: 'Products', scope: 'catalog.manage' },
  { href: '/pharmacies', label: 'Pharmacies', scope: 'pharmacies.manage' },
  { href: '/routing', label: 'Routing', scope: 'pharmacies.manage' },
  { href: '/patients', label: 'Patients', scope: 'patients.read' },
  { href: '/webhooks', label: 'Webhooks', scope: 'webhooks.manage' },
  { href: '/events', label: 'Events', scope: 'events.read' },
  { href: '/keys', label: 'API keys', scope: 'keys.manage' },
  { href: '/account', label: 'Account' },
];

export function ConsoleShell({ me, children }: { me: ConsoleMe; children: React.ReactNode }) {
  const live = me.mode === 'live';
  return (
    <div className="min-h-screen">
      <header className={`border-b border-slate-200 bg-white border-t-4 ${live ? 'border-t-emerald-600' : 'border-t-amber-400'}`}>
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-8 gap-y-3 px-6 py-3">
          <div className="leading-tight">
            <p className="text-[11px] font-semibold uppercase tracking-wider text-indigo-600">Fulfillment Rail</p>
            <p data-testid="tenant-name" className="text-sm font-semibold text-slate-900">
              {me.tenant?.name ?? 'Platform'}
            </p>
          </div>
          <NavLinks items={NAV.filter((n) => !n.scope || me.scopes.includes(n.scope))} />
          <div className="ml-auto flex items-center gap-4">
            <ModeSwitch mode={me.mode} />
            <span className="hidden text-sm text-slate-500 md:inline">{me.user.email}</span>
            <SignOutButton />
          </div>
        </div>
      </header>
      {live && (
        <p className="bg-emerald-50 py-1.5 text-center text-xs font-medium text-emerald-900">
          Live mode: real patients, real orders, real pharmacies.
        </p>
      )}
      <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
    </div>
  );
}
