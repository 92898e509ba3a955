'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RouterInputs } from '@/web/console/types';
import { useTRPC } from '@/web/trpc/client';
import { FieldError } from '../ui/field-error';
import { ROLE_LABELS } from './team-labels';

type Role = NonNullable<RouterInputs['users']['updateUser']['role']>;

/** A member's role, changeable to any role within the signed-in person's rank; the API's refusal shows beneath. */
export function TeamMemberRole({ id, name, role, roles }: { id: string; name: string; role: Role; roles: Role[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const update = useMutation(trpc.users.updateUser.mutationOptions({ onSettled: () => qc.invalidateQueries({ queryKey: trpc.users.listUsers.queryKey() }) }));
  const errorId = `role-error-${id}`;
  return (
    <div>
      <select
        aria-label={`Role of ${name}`}
        value={update.isPending && update.variables.role ? update.variables.role : role}
        disabled={update.isPending}
        onChange={(e) => update.mutate({ id, role: e.target.value as Role })}
        aria-invalid={update.isError}
        aria-describedby={errorId}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
      >
        {roles.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      <FieldError id={errorId} message={update.error?.message} />
    </div>
  );
}
