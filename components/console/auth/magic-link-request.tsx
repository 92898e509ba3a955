'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { Alert, Button, Field } from '../ui/field';
import { FieldError, fieldMessage } from '../ui/field-error';
import { QueryError } from '../ui/query-state';

/** Asks the API to e-mail a single-use sign-in link; the answer never says whether the account exists. */
export function MagicLinkRequest({ initialEmail, onUsePassword }: { initialEmail: string; onUsePassword: () => void }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState(initialEmail);
  const request = useMutation(trpc.auth.magicLink.mutationOptions());
  const emailError = fieldMessage(request.error, 'email');

  function submit(e: React.FormEvent) {
    e.preventDefault();
    request.mutate({ email });
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-600">We will e-mail you a link that signs you in once, within 15 minutes.</p>
      <div>
        <Field
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          aria-invalid={Boolean(emailError)}
          aria-describedby="magic-email-error"
        />
        <FieldError id="magic-email-error" message={emailError} />
      </div>
      {request.isError && !emailError && <QueryError error={request.error} title="The link could not be sent. Try again." />}
      {request.isSuccess && <Alert tone="info">If {request.variables.email} has an account, a sign-in link is on its way. Check your inbox.</Alert>}
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? 'Sending…' : request.isSuccess ? 'Send another link' : 'Email me a sign-in link'}
      </Button>
      <button type="button" onClick={onUsePassword} className="w-full text-sm font-medium text-indigo-700 hover:underline">
        Sign in with a password instead
      </button>
    </form>
  );
}
