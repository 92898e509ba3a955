'use client';

import { useState } from 'react';
import { ConsoleDataProvider } from '@/web/trpc/client';
import { MagicLinkRequest } from './magic-link-request';
import { SignInForm } from './sign-in-form';

/** The sign-in page's two ways in: password (+ TOTP), or a link by e-mail (a public procedure over /api/trpc). */
export function SignInPanel() {
  const [linkFor, setLinkFor] = useState<string>();
  return (
    <ConsoleDataProvider>
      {linkFor === undefined ? <SignInForm onUseLink={setLinkFor} /> : <MagicLinkRequest initialEmail={linkFor} onUsePassword={() => setLinkFor(undefined)} />}
    </ConsoleDataProvider>
  );
}
