import { ApiLinks } from '@/components/api-links';

export default function Home() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Fulfillment Rail</h1>
      <p className="mt-3 text-slate-600">
        Telehealth prescription fulfillment: provider-approved orders routed across your connected pharmacies, tracked
        through shipment and delivery, with signed webhooks and a durable event log.
      </p>
      <ApiLinks />
    </main>
  );
}
