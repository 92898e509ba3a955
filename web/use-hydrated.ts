'use client';

import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False in the server's HTML and during hydration, true once React owns the page. A submit button stays
 * disabled until then: a form submitted before hydration would go out as the browser's own GET and put
 * what was typed (a password, a patient's name) in the address bar and the access log.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(never, () => true, () => false);
}
