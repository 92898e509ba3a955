'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { Loading, QueryError } from '../ui/query-state';
import { ROLE_LABELS } from './team-labels';

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-3 gap-4 px-5 py-3 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd data-testid={testId} className="col-span-2 min-w-0 break-words font-medium text-slate-900">
        {children}
      </dd>
    </div>
  );
}

/** Who is signed in: the same facts GET /v1/auth/me answers. */
export function ProfileCard() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions({}));
  if (me.isPending) return <Loading label="Loading your profile…" />;
  if (me.isError) return <QueryError error={me.error} title="Your profile could not be read." />;
  const { user, tenant, mode } = me.data;
  if (!user) return null;
  const provider = user.provider;
  return (
    <section className="rounded-lg border border-slate-200 bg-white">
      <h2 className="border-b border-slate-200 px-5 py-3 text-sm font-semibold text-slate-900">Profile</h2>
      <dl className="divide-y divide-slate-100">
        <Row label="E-mail">{user.email}</Row>
        {user.name && <Row label="Name">{user.name}</Row>}
        <Row label="Role">{ROLE_LABELS[user.role] ?? user.role}</Row>
        <Row label="Clinic">
          {tenant ? (
            <>
              {tenant.name} <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal capitalize text-slate-600">{tenant.plan} plan</span>
            </>
          ) : (
            '—'
          )}
        </Row>
        <Row label="Mode" testId="profile-mode">
          <span className="capitalize">{mode}</span>
        </Row>
        {provider && (
          <>
            <Row label="NPI">
              {provider.npi ?? '—'}{' '}
              {provider.npiVerifiedAt ? (
                <span className="ml-2 rounded bg-emerald-100 px-1.5 py-0.5 text-xs text-emerald-800">verified</span>
              ) : (
                <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">not verified</span>
              )}
            </Row>
            <Row label="Licensed in">{provider.licensedStates.length ? provider.licensedStates.join(', ') : '—'}</Row>
            {provider.pendingLicensedStates.length > 0 && (
              <Row label="Awaiting verification" testId="profile-pending-states">
                {provider.pendingLicensedStates.join(', ')}{' '}
                <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">not yet valid for approvals</span>
              </Row>
            )}
          </>
        )}
      </dl>
    </section>
  );
}
