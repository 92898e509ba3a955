import Link from 'next/link';
import { redirect } from 'next/navigation';
import { ApiLinks } from '@/components/api-links';
import { currentSession } from '@/web/console/session';

export const dynamic = 'force-dynamic';

export default async function Home() {
  if ((await currentSession())?.accessToken) redirect('/console');
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Fulfillment Rail</h1>
      <p className="mt-3 text-slate-600">
        Telehealth prescription fulfillment: provider-approved orders routed across your connected pharmacies, tracked
        through shipment and delivery, with signed webhooks and a durable event log.
      </p>
      <Link href="/login" className="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500">
        Sign in to the console
      </Link>
      <ApiLinks />
    </main>
  );
}
