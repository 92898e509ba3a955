'use client';

import { useEffect, useRef, useState } from 'react';
import { portalAction } from './portal-actions';
import { portalPath, textLink } from './portal-ui';

/**
 * The sign-in mail's one-click link (DESIGN decision 39). The exchange happens once the page runs in the
 * patient's browser, as a same-origin request: a mail scanner that only fetches the link spends nothing, and the
 * SameSite=Strict cookie it sets is sent from then on (a cookie set on a navigation from the mail app would not be).
 */
export function LinkSignIn({ embedKey, token }: { embedKey: string; token: string }) {
  const [problem, setProblem] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    portalAction(embedKey, 'verify-link', { token }).then((result) => {
      if (!result.ok) return setProblem(result.message);
      // Replaced, so Back does not return to a spent link.
      window.location.replace(portalPath(embedKey));
    });
  }, [embedKey, token]);

  if (problem) {
    return (
      <div className="space-y-4">
        <p role="alert" className="rounded-md border-2 border-red-700 bg-red-50 p-3 text-base text-red-900">
          {problem}
        </p>
        <p className="text-base">
          <a href={portalPath(embedKey)} className={textLink}>
            Sign in with your e-mail and date of birth
          </a>
        </p>
      </div>
    );
  }
  return (
    <p role="status" className="text-base text-slate-700">
      Signing you in…
    </p>
  );
}
