'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC, type Mode } from '@/web/trpc/client';
import { ApiKeySecret } from './api-key-secret';
import { errorCode, FieldError, fieldMessage, FormError } from '../ui/field-error';
import { Field } from '../ui/field';
import { SelectField } from '../ui/select-field';
import { useHydrated } from '@/web/use-hydrated';

type KeyType = 'secret' | 'restricted';

/**
 * New keys. The scope picker offers only what the signed-in person holds (the API refuses anything else with
 * scope_not_grantable, whose message shows beside the picker); a secret key needs every key scope.
 */
export function ApiKeyCreateForm({ grantable, canCreateSecret, modes }: { grantable: string[]; canCreateSecret: boolean; modes: Mode[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<Mode>(modes[0]);
  const [keyType, setKeyType] = useState<KeyType>(canCreateSecret ? 'secret' : 'restricted');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState('');
  const hydrated = useHydrated();
  const create = useMutation(
    trpc.developer.createApiKey.mutationOptions({
      onSuccess: () => {
        setName('');
        setScopes([]);
        setDays('');
        return qc.invalidateQueries({ queryKey: trpc.developer.apiKeysWithCreators.queryKey() });
      },
    }),
  );
  const err = create.error;
  const nameError = fieldMessage(err, 'name');
  const scopesError = fieldMessage(err, 'scopes') ?? (errorCode(err) === 'scope_not_grantable' ? err?.message : undefined);
  const daysError = fieldMessage(err, 'expiresInDays');
  const claimed = Boolean(nameError || scopesError || daysError);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    create.mutate({ name, mode, keyType, scopes: keyType === 'restricted' ? scopes : [], expiresInDays: days.trim() === '' ? null : Number(days) });
  }

  if (create.data?.key) return <ApiKeySecret name={create.data.apiKey.name} plaintext={create.data.key} onDone={() => create.reset()} />;

  return (
    <form onSubmit={submit} aria-labelledby="create-key-title" className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="create-key-title" className="text-sm font-semibold text-slate-900">
        Create a key
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Field label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={120} aria-invalid={Boolean(nameError)} aria-describedby="key-name-error" />
          <FieldError id="key-name-error" message={nameError} />
        </div>
        <div>
          <Field
            label="Expires after (days, empty for never)"
            name="expiresInDays"
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            aria-invalid={Boolean(daysError)}
            aria-describedby="key-days-error"
          />
          <FieldError id="key-days-error" message={daysError} />
        </div>
        <SelectField label="Type" name="keyType" value={keyType} onChange={(e) => setKeyType(e.target.value as KeyType)}>
          {canCreateSecret && <option value="secret">Secret: every scope a key can hold</option>}
          <option value="restricted">Restricted: only the scopes you pick</option>
        </SelectField>
        <SelectField label="Mode" name="mode" value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
          {modes.map((m) => (
            <option key={m} value={m}>
              {m === 'live' ? 'Live' : 'Sandbox'}
            </option>
          ))}
        </SelectField>
      </div>
      {keyType === 'restricted' && (
        <fieldset aria-describedby="key-scopes-error">
          <legend className="text-sm font-medium text-slate-700">Scopes (only those you hold yourself)</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-3">
            {grantable.map((s) => (
              <label key={s} className="flex items-center gap-2 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="scopes"
                  value={s}
                  checked={scopes.includes(s)}
                  onChange={(e) => setScopes((now) => (e.target.checked ? [...now, s] : now.filter((x) => x !== s)))}
                  className="size-4 rounded border-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
                />
                <span className="font-mono text-xs">{s}</span>
              </label>
            ))}
          </div>
          <FieldError id="key-scopes-error" message={scopesError} />
        </fieldset>
      )}
      <FormError error={err} claimed={claimed} />
      <button
        type="submit"
        disabled={create.isPending || !hydrated}
        className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
      >
        {create.isPending ? 'Creating…' : 'Create key'}
      </button>
    </form>
  );
}
