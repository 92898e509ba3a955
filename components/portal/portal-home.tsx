import { NotificationChoices } from './notification-choices';
import type { PatientAddress, PatientOrderSummary, PatientProfile, PatientSubmission } from './portal-types';
import { card, formatDay, portalPath, sectionTitle, textLink } from './portal-ui';

/** A medication with its strength, once: "Semaglutide 0.25 mg" (a name that already says its strength keeps it as it is). */
export const medicationName = (m: PatientOrderSummary['medications'][number]) => (m.strength && !m.name.includes(m.strength) ? `${m.name} ${m.strength}` : m.name);

/** What an order holds, in one line: "Semaglutide 0.25 mg, Pen needles". */
export const medicationLine = (o: Pick<PatientOrderSummary, 'medications'>) => o.medications.map(medicationName).join(', ');

export function StatusBadge({ label }: { label: string }) {
  return <span className="inline-block rounded-full bg-indigo-50 px-2.5 py-0.5 text-sm font-semibold text-indigo-700 ring-1 ring-indigo-700/20">{label}</span>;
}

export function AddressLines({ address }: { address: PatientAddress }) {
  return (
    <>
      {address.line1}
      {address.line2 && (
        <>
          <br />
          {address.line2}
        </>
      )}
      <br />
      {address.city}, {address.state} {address.postalCode}
    </>
  );
}

function OrderCard({ embedKey, order }: { embedKey: string; order: PatientOrderSummary }) {
  const href = `${portalPath(embedKey)}/orders/${encodeURIComponent(order.id)}`;
  return (
    <li className={`${card} space-y-2`} data-testid="portal-order">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <StatusBadge label={order.statusLabel} />
        <span className="text-sm text-slate-600">Ordered {formatDay(order.createdAt)}</span>
      </div>
      <p className="text-base font-medium break-words">{medicationLine(order)}</p>
      <p className="text-sm text-slate-700">{order.nextStep}</p>
      {order.shipment && (
        <p className="text-sm break-words">
          {order.shipment.carrier} tracking {order.shipment.trackingNumber}
          {order.shipment.estimatedDelivery && <> · expected {formatDay(order.shipment.estimatedDelivery)}</>}
        </p>
      )}
      <a href={href} className={`${textLink} inline-block py-1`}>
        Order details<span className="sr-only"> for {medicationLine(order)}, ordered {formatDay(order.createdAt)}</span>
      </a>
    </li>
  );
}

/** A signed-in patient's first page: orders, questionnaires sent, notice choices and their details. */
export function PortalHome({ embedKey, profile, orders, submissions }: { embedKey: string; profile: PatientProfile; orders: PatientOrderSummary[]; submissions: PatientSubmission[] }) {
  return (
    <div className="space-y-10">
      <section aria-labelledby="portal-orders" className="space-y-3">
        <h2 id="portal-orders" className={sectionTitle}>
          Your orders
        </h2>
        {orders.length === 0 ? (
          <p className="text-base text-slate-700">No orders yet. When a provider approves a treatment for you, its order appears here.</p>
        ) : (
          <ul className="space-y-3">
            {orders.map((o) => (
              <OrderCard key={o.id} embedKey={embedKey} order={o} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="portal-submissions" className="space-y-3">
        <h2 id="portal-submissions" className={sectionTitle}>
          Questionnaires you sent
        </h2>
        {submissions.length === 0 ? (
          <p className="text-base text-slate-700">None yet.</p>
        ) : (
          <ul className="space-y-3">
            {submissions.map((s, i) => (
              <li key={`${s.reference}-${i}`} className={`${card} space-y-1`} data-testid="portal-submission">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <StatusBadge label={s.outcomeLabel} />
                  <span className="text-sm text-slate-600">Sent {formatDay(s.submittedAt)}</span>
                </div>
                {s.reference && <p className="text-sm">Reference {s.reference}</p>}
                <p className="text-sm text-slate-700">{s.nextStep}</p>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="portal-notices" className="space-y-3">
        <h2 id="portal-notices" className={sectionTitle}>
          Notifications
        </h2>
        <NotificationChoices embedKey={embedKey} initial={profile.notifications} />
      </section>

      <section aria-labelledby="portal-details" className="space-y-3">
        <h2 id="portal-details" className={sectionTitle}>
          Your details
        </h2>
        <dl className={`${card} grid grid-cols-1 gap-x-4 gap-y-2 text-base sm:grid-cols-[max-content_1fr]`}>
          <dt className="font-medium text-slate-600">Name</dt>
          <dd className="break-words">
            {profile.firstName} {profile.lastName}
          </dd>
          <dt className="font-medium text-slate-600">E-mail</dt>
          <dd className="break-all">{profile.email ?? 'None'}</dd>
          <dt className="font-medium text-slate-600">Phone</dt>
          <dd>{profile.phone ?? 'None'}</dd>
          <dt className="font-medium text-slate-600">Shipping address</dt>
          <dd className="break-words">{profile.shippingAddress ? <AddressLines address={profile.shippingAddress} /> : 'None yet'}</dd>
        </dl>
        <p className="text-sm text-slate-600">To change your shipping address for an order that has not gone to the pharmacy yet, open the order.</p>
      </section>
    </div>
  );
}
