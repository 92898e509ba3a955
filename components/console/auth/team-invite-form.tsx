'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterInputs } from '@/web/console/types';
import { useTRPC } from '@/web/trpc/client';
import { Alert, Field } from '../ui/field';
import { errorCode, FieldError, fieldMessage, FormError } from '../ui/field-error';
import { SelectField } from '../ui/select-field';
import { ROLE_LABELS } from './team-labels';
import { useHydrated } from '@/web/use-hydrated';

type Role = RouterInputs['users']['createUser']['role'];

/** Invites a person by e-mail; they choose their password through the one-time link the API mails them. */
export function TeamInviteForm({ roles }: { roles: Role[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const hydrated = useHydrated();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(roles.includes('developer') ? 'developer' : roles[0]);
  const [npi, setNpi] = useState('');
  const [states, setStates] = useState('');
  const invite = useMutation(
    trpc.users.createUser.mutationOptions({
      onSuccess: () => {
        setEmail('');
        setName('');
        setNpi('');
        setStates('');
        return qc.invalidateQueries({ queryKey: trpc.users.listUsers.queryKey() });
      },
    }),
  );
  const err = invite.error;
  const emailError = fieldMessage(err, 'email') ?? (errorCode(err) === 'email_taken' ? err?.message : undefined);
  const nameError = fieldMessage(err, 'name');
  const roleError = fieldMessage(err, 'role') ?? (errorCode(err) === 'role_not_grantable' ? err?.message : undefined);
  const npiError = fieldMessage(err, 'npi');
  const statesError = fieldMessage(err, 'licensedStates');
  const claimed = Boolean(emailError || nameError || roleError || npiError || statesError);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const provider = role === 'provider';
    const licensedStates = states
      .split(/[\s,]+/)
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    invite.mutate({
      email,
      role,
      ...(name.trim() ? { name } : {}),
      ...(provider && npi.trim() ? { npi: npi.trim() } : {}),
      ...(provider && licensedStates.length ? { licensedStates } : {}),
    });
  }

  return (
    <form onSubmit={submit} aria-labelledby="invite-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="invite-title" className="text-sm font-semibold text-slate-900">
        Invite a member
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <Field label="E-mail" name="email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required aria-invalid={Boolean(emailError)} aria-describedby="invite-email-error" />
          <FieldError id="invite-email-error" message={emailError} />
        </div>
        <div>
          <Field label="Name (optional)" name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} aria-invalid={Boolean(nameError)} aria-describedby="invite-name-error" />
          <FieldError id="invite-name-error" message={nameError} />
        </div>
        <div>
          <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as Role)} aria-invalid={Boolean(roleError)} aria-describedby="invite-role-error">
            {roles.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </SelectField>
          <FieldError id="invite-role-error" message={roleError} />
        </div>
        {role === 'provider' && (
          <>
            <div>
              <Field label="NPI (optional)" name="npi" inputMode="numeric" value={npi} onChange={(e) => setNpi(e.target.value)} aria-invalid={Boolean(npiError)} aria-describedby="invite-npi-error" />
              <FieldError id="invite-npi-error" message={npiError} />
            </div>
            <div className="sm:col-span-2">
              <Field
                label="Licensed states (optional, e.g. TX, CA; verified by Fulfillment Rail before they count)"
                name="licensedStates"
                value={states}
                onChange={(e) => setStates(e.target.value)}
                aria-invalid={Boolean(statesError)}
                aria-describedby="invite-states-error"
              />
              <FieldError id="invite-states-error" message={statesError} />
            </div>
          </>
        )}
      </div>
      <FormError error={err} claimed={claimed} />
      {invite.isSuccess && <Alert tone="success">An invitation is on its way to {invite.data.email}. They appear below as invited until they set a password.</Alert>}
      <button
        type="submit"
        disabled={invite.isPending || !hydrated}
        className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
      >
        {invite.isPending ? 'Inviting…' : 'Send invitation'}
      </button>
    </form>
  );
}
