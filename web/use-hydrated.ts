'use client';

import { useEffect, useState } from 'react';

/**
 * False in the server's HTML and during hydration, true once the page's script owns the page. A submit button
 * stays disabled until then: a form submitted before hydration would go out as the browser's own GET and put
 * what was typed (a password, a patient's name) in the address bar and the access log. An effect, not
 * useSyncExternalStore's server snapshot: the patient pages hydrate with Preact (docs/decisions/flows.md, "The
 * patient pages' weight"), which keeps the server's attributes through hydration, so the first render in the
 * browser must say what the server said, and the change comes with the render after it.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
