import Link from 'next/link';
import type { ConsoleMe } from '@/server/console/session';
import { ModeSwitch } from './mode-switch';
import { SignOutButton } from './sign-out-button';

const NAV = [
  { href: '/console', label: 'Overview' },
  { href: '/webhooks', label: 'Webhooks', scope: 'webhooks.manage' },
  { href: '/events', label: 'Events', scope: 'events.read' },
  { href: '/account', label: 'Account' },
];

export function ConsoleShell({ me, token, refreshToken, children }: { me: ConsoleMe; token: string; refreshToken?: string; children: React.ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center gap-6 px-6 py-3">
          <div>
            <p className="text-xs font-semibold uppercase tracking-wider text-indigo-600">Fulfillment Rail</p>
            <p data-testid="tenant-name" className="text-sm font-semibold text-slate-900">
              {me.tenant?.name ?? 'Platform'}
            </p>
          </div>
          <nav className="flex gap-4 text-sm">
            {NAV.filter((n) => !n.scope || me.scopes.includes(n.scope)).map((n) => (
              <Link key={n.href} href={n.href} className="text-slate-600 hover:text-slate-900">
                {n.label}
              </Link>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-4">
            <ModeSwitch mode={me.mode} />
            <span className="text-sm text-slate-500">{me.user.email}</span>
            <SignOutButton token={token} refreshToken={refreshToken} />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-6 py-8">{children}</main>
    </div>
  );
}
