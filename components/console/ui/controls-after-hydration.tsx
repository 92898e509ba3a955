'use client';

import { useHydrated } from '@/web/use-hydrated';

/**
 * Every control of the console stays disabled until React owns the page. Before that a click does nothing and
 * what is typed is reset when the page hydrates (the server's HTML holds the initial state), so an early user
 * would see a button ignore them or a value they typed replaced: a provider's "Live" ignored, or 7 days moved
 * instead of the 40 typed. A disabled fieldset disables every input, select, textarea and button inside it at
 * once; `contents` keeps it out of the layout. Links are not form controls and work as plain navigation.
 */
export function ControlsAfterHydration({ children }: { children: React.ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset disabled={!hydrated} className="contents">
      {children}
    </fieldset>
  );
}
