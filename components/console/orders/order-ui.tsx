import Link from 'next/link';
import { IdChip } from '../ui/copy-button';
import type { OrderStatus } from './order-types';
import { orderStatusWords } from '../ui/status-words';
import { ViewTabs } from '@/components/console/ui/view-tabs';

/** Small pieces shared by the order pages (no hooks: server or client). */

const TONE: Record<OrderStatus, string> = {
  draft: 'bg-slate-200 text-slate-700',
  pending_approval: 'bg-amber-100 text-amber-900',
  approved: 'bg-sky-100 text-sky-800',
  submitting: 'bg-sky-100 text-sky-800',
  submitted: 'bg-indigo-100 text-indigo-800',
  accepted: 'bg-indigo-100 text-indigo-800',
  shipped: 'bg-emerald-100 text-emerald-800',
  delivered: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-600',
};

/** An order's status in words (the API's value stays in data-status). */
export function OrderStatusBadge({ status, testId = 'order-status' }: { status: OrderStatus; testId?: string }) {
  return (
    <span data-testid={testId} data-status={status} className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONE[status] ?? TONE.draft}`}>
      {orderStatusWords(status)}
    </span>
  );
}

/** The two views of /orders: every order, and the orders waiting for a provider. */
export function OrderTabs({ active }: { active: 'all' | 'approvals' }) {
  return (
    <ViewTabs
      label="Order views"
      tabs={[
        { href: '/orders', label: 'All orders', active: active === 'all' },
        { href: '/orders/approvals', label: 'Approval queue', active: active === 'approvals' },
      ]}
    />
  );
}

/** "Semaglutide 0.25 mg" from a prescription line's product, or its id when the product is unknown. */
export const productLabel = (p: { productId: string; name?: string | null; strength?: string | null }) =>
  p.name ? `${p.name}${p.strength ? ` ${p.strength}` : ''}` : p.productId;

/** A person, key or patient by name, with the id small and copyable beside it (the id alone when no name is known). */
export function Named({ id, name, href }: { id: string; name?: string | null; href?: string }) {
  return (
    <span className="inline-flex max-w-full flex-wrap items-center gap-x-2 break-words">
      {name && (href ? <Link href={href} prefetch={false} className="font-medium text-indigo-700 hover:underline">{name}</Link> : <span className="font-medium">{name}</span>)}
      <IdChip id={id} />
    </span>
  );
}

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** What a page says to a role that may not use it, instead of an error. */
export function NotForRole({ children }: { children: React.ReactNode }) {
  return <p className="rounded-md border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700">{children}</p>;
}
