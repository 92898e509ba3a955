import type { ConsoleMe } from '@/web/console/types';
import { BillingBanner } from '../billing/billing-banner';
import { ControlsAfterHydration } from './controls-after-hydration';
import { ModeBanner, ModeSwitch } from './mode-switch';
import { MenuButton, NavLinks, NavMenuProvider, type NavItem } from './nav-links';
import { SignOutButton } from '../auth/sign-out-button';

// A page needing a scope shows only to roles that hold it, so a provider never sees the admin pages.
// A page open to several scopes lists them all; holding one of them is enough to show it.
const NAV: (NavItem & { scope?: string | readonly string[] })[] = [
  { href: '/console', label: 'Overview' },
  // What a clinic's admin sets up before patients reach a hosted page (the checklist of the mode).
  { href: '/go-live', label: 'Go live', scope: 'flows.manage' },
  { href: '/orders', label: 'Orders', scope: 'orders.read' },
  { href: '/intake/submissions', label: 'Intake', scope: ['intake.review', 'patients.read'] },
  { href: '/products', label: 'Products', scope: 'catalog.manage' },
  { href: '/intake/questionnaires', label: 'Questionnaires', scope: ['catalog.manage', 'intake.review'] },
  // Providers come for the clinical changes waiting on them and the funnels; growth teams edit and embed.
  { href: '/flows', label: 'Flows', scope: ['flows.manage', 'FLOWS_ANALYTICS_VIEW', 'intake.review'] },
  { href: '/embed-keys', label: 'Embed keys', scope: 'flows.manage' },
  { href: '/pharmacies', label: 'Pharmacies', scope: 'pharmacies.manage' },
  { href: '/routing', label: 'Routing', scope: 'pharmacies.manage' },
  { href: '/patients', label: 'Patients', scope: 'patients.read' },
  { href: '/settings/notices', label: 'Patient notices', scope: 'patients.write' },
  { href: '/webhooks', label: 'Webhooks', scope: 'webhooks.manage' },
  { href: '/events', label: 'Events', scope: 'events.read' },
  { href: '/keys', label: 'API keys', scope: 'keys.manage' },
  { href: '/team', label: 'Team', scope: 'users.manage' },
  { href: '/usage', label: 'Usage', scope: 'usage.read' },
  { href: '/billing', label: 'Billing', scope: 'billing.manage' },
  { href: '/account', label: 'Account' },
];

export const navFor = (scopes: readonly string[]): NavItem[] =>
  NAV.filter((n) => !n.scope || (typeof n.scope === 'string' ? [n.scope] : n.scope).some((s) => scopes.includes(s))).map(({ href, label }) => ({ href, label }));

function Who({ me }: { me: ConsoleMe }) {
  return (
    <span title={me.user.email} className="block min-w-0 truncate text-sm text-slate-500">
      {me.user.email}
    </span>
  );
}

export function ConsoleShell({ me, children }: { me: ConsoleMe; children: React.ReactNode }) {
  const tenant = me.tenant?.name ?? 'Platform';
  return (
    <NavMenuProvider>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:font-semibold focus:text-indigo-700 focus:shadow"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen flex-col">
        <ControlsAfterHydration>
          <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
            <ModeBanner mode={me.mode} />
            <div className="flex items-center gap-3 px-4 py-2.5 lg:px-6">
              <div className="min-w-0 flex-1 leading-tight">
                <p className="text-[11px] font-semibold tracking-wider text-indigo-700 uppercase">Fulfillment Rail</p>
                <p data-testid="tenant-name" title={tenant} className="truncate text-sm font-semibold text-slate-900">
                  {tenant}
                </p>
              </div>
              <ModeSwitch mode={me.mode} />
              <div className="hidden min-w-0 max-w-xs items-center gap-3 lg:flex">
                <Who me={me} />
                <SignOutButton />
              </div>
              {/* Last in the header, so the folded navigation right after it is next in the tab order. */}
              <MenuButton />
            </div>
          </header>
          <div className="flex min-w-0 flex-1 flex-col lg:flex-row">
            <NavLinks
              items={navFor(me.scopes)}
              footer={
                <div className="flex items-center justify-between gap-3">
                  <Who me={me} />
                  <SignOutButton />
                </div>
              }
            />
            <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8">
              <div className="mx-auto max-w-6xl">
                {/* Every role of a clinic sees a payment past due; platform operators belong to no clinic. */}
                {me.tenant && <BillingBanner canManage={me.scopes.includes('billing.manage')} />}
                {children}
              </div>
            </main>
          </div>
        </ControlsAfterHydration>
      </div>
    </NavMenuProvider>
  );
}
