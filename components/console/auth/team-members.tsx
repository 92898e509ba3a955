'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterOutputs } from '@/web/console/types';
import { useTRPC } from '@/web/trpc/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { IdChip } from '../ui/copy-button';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { ROLE_LABELS, STATUS_LABELS, STATUS_STYLES } from './team-labels';
import { TeamMemberRole } from './team-member-role';

type Member = RouterOutputs['users']['listUsers'][number];
type TenantRole = Exclude<Member['role'], 'ops'>;

const cell = 'px-4 py-2 align-top';

function ProviderFacts({ provider }: { provider: NonNullable<Member['provider']> }) {
  return (
    <div className="space-y-1 text-xs text-slate-700">
      <p>
        NPI <span className="font-mono">{provider.npi ?? 'not given'}</span>{' '}
        {provider.npiVerifiedAt ? (
          <span className="rounded bg-emerald-100 px-1.5 py-0.5 text-emerald-800">verified</span>
        ) : (
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-900">not verified</span>
        )}
      </p>
      <p className="break-words">Licensed in: {provider.licensedStates.length ? provider.licensedStates.join(', ') : 'none yet'}</p>
      {provider.pendingLicensedStates.length > 0 && <p className="break-words text-amber-900">Awaiting verification: {provider.pendingLicensedStates.join(', ')}</p>}
    </div>
  );
}

/** The clinic's people. Roles and deactivation only for members within the signed-in person's rank. */
export function TeamMembers({ meId, roles }: { meId: string; roles: TenantRole[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const members = useQuery(trpc.users.listUsers.queryOptions({}));
  const [leaving, setLeaving] = useState<Member>();
  const deactivate = useMutation(
    trpc.users.deactivateUser.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.users.listUsers.queryKey() });
        setLeaving(undefined);
      },
    }),
  );

  if (members.isPending) return <Loading label="Loading the team…" />;
  if (members.isError) return <QueryError error={members.error} title="The team could not be read." />;
  const manageable = (m: Member) => m.id !== meId && m.status !== 'deactivated' && m.role !== 'ops' && roles.includes(m.role);
  return (
    <>
      <TableScroll label="Team members">
        <table className="w-full min-w-[56rem] text-left text-sm">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className={cell}>Member</th>
              <th className={cell}>Role</th>
              <th className={cell}>Status</th>
              <th className={cell}>Provider</th>
              <th className={cell}>Added</th>
              <th className={`${cell} relative`}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.data.map((m) => {
              const label = m.name ?? m.email;
              return (
                <tr key={m.id} className="border-t border-slate-100" data-testid="team-member">
                  <td className={`${cell} max-w-72`}>
                    <span className="block break-words font-medium text-slate-900">
                      {label}
                      {m.id === meId && <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>}
                    </span>
                    {m.name && <span className="block break-all text-xs text-slate-600">{m.email}</span>}
                    <IdChip id={m.id} />
                  </td>
                  <td className={cell}>
                    {manageable(m) && m.role !== 'ops' ? <TeamMemberRole id={m.id} name={label} role={m.role} roles={roles} /> : ROLE_LABELS[m.role]}
                  </td>
                  <td className={cell}>
                    <span data-testid="member-status" className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[m.status]}`}>
                      {STATUS_LABELS[m.status]}
                    </span>
                  </td>
                  <td className={`${cell} max-w-64`}>{m.provider ? <ProviderFacts provider={m.provider} /> : <span className="text-slate-500">—</span>}</td>
                  <td className={`${cell} whitespace-nowrap`}>{formatDateTime(m.createdAt)}</td>
                  <td className={`${cell} text-right`}>
                    {manageable(m) && (
                      <button
                        type="button"
                        onClick={() => {
                          deactivate.reset();
                          setLeaving(m);
                        }}
                        aria-label={`Deactivate ${label}`}
                        className="rounded-md border border-red-200 px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-600"
                      >
                        Deactivate
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <ConfirmDialog
        open={leaving !== undefined}
        title={`Deactivate ${leaving?.name ?? leaving?.email ?? ''}?`}
        confirmLabel="Deactivate"
        busy={deactivate.isPending}
        onConfirm={() => leaving && deactivate.mutate({ id: leaving.id })}
        onCancel={() => setLeaving(undefined)}
      >
        <p>They are signed out everywhere at once and can no longer sign in. API keys they created keep working; review them on the API keys page.</p>
        {deactivate.isError && <QueryError error={deactivate.error} />}
      </ConfirmDialog>
    </>
  );
}
