'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';

export interface NavItem {
  href: string;
  label: string;
}

const NAV_ID = 'console-nav';

interface MenuState {
  open: boolean;
  toggle: () => void;
  close: (refocus?: boolean) => void;
  buttonRef: React.RefObject<HTMLButtonElement | null>;
}

const Menu = createContext<MenuState | null>(null);

function useMenu(): MenuState {
  const menu = useContext(Menu);
  if (!menu) throw new Error('NavMenu components must sit inside <NavMenuProvider>.');
  return menu;
}

/**
 * Below the `lg` breakpoint the navigation folds behind a menu button in the header; the button and the
 * panel sit in different parts of the page, so they share their open state here.
 */
export function NavMenuProvider({ children }: { children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement | null>(null);
  const close = useCallback((refocus = false) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);
  const toggle = useCallback(() => setOpen((o) => !o), []);

  // A followed link lands on a new page: the panel must not stay open over it.
  const path = usePathname();
  useEffect(() => setOpen(false), [path]);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close(true);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, close]);

  return <Menu.Provider value={{ open, toggle, close, buttonRef }}>{children}</Menu.Provider>;
}

export function MenuButton() {
  const { open, toggle, buttonRef } = useMenu();
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-expanded={open}
      aria-controls={NAV_ID}
      onClick={toggle}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 lg:hidden"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
        {open ? (
          <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.3 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.3-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
        ) : (
          <path d="M3 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm1 4a1 1 0 1 0 0 2h12a1 1 0 1 0 0-2H4Z" />
        )}
      </svg>
      Menu
    </button>
  );
}

/** The page a path belongs to is the longest matching entry, so /orders/approvals is not also "Orders"'s twin. */
function activeHref(path: string, items: NavItem[]): string | undefined {
  return items
    .filter((n) => path === n.href || path.startsWith(`${n.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
}

/** The console's navigation: a sidebar from `lg` up, a panel under the header (closed by default) below it. */
export function NavLinks({ items, footer }: { items: NavItem[]; footer?: React.ReactNode }) {
  const { open } = useMenu();
  const active = activeHref(usePathname(), items);
  return (
    <nav
      id={NAV_ID}
      aria-label="Console"
      className={`${open ? 'block' : 'hidden'} border-b border-slate-200 bg-white lg:block lg:w-56 lg:shrink-0 lg:border-r lg:border-b-0`}
    >
      <ul className="flex flex-col gap-0.5 p-3 text-sm">
        {items.map((n) => (
          <li key={n.href}>
            <Link
              href={n.href}
              aria-current={n.href === active ? 'page' : undefined}
              className={`block rounded-md px-3 py-2 font-medium ${n.href === active ? 'bg-indigo-50 text-indigo-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'}`}
            >
              {n.label}
            </Link>
          </li>
        ))}
      </ul>
      {footer && <div className="border-t border-slate-200 px-6 py-3 lg:hidden">{footer}</div>}
    </nav>
  );
}
