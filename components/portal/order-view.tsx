'use client';

import { useState } from 'react';
import { AddressLines, medicationName, StatusBadge } from './portal-home';
import type { PatientOrder } from './portal-types';
import { card, formatDay, portalPath, sectionTitle, textLink } from './portal-ui';
import { ShippingForm } from './shipping-form';

/**
 * One order as its patient reads it (DESIGN decision 40): where it stands and what happens next, the tracking, what
 * is in it and how to take it, who fills it, what happened so far, and where it ships (changeable until it goes
 * to the pharmacy). Everything from the server is shown as text. A saved address answers with the order as it now
 * stands (its status and timeline), which replaces the one the page was rendered with.
 */
export function OrderView({ embedKey, order: rendered, phone }: { embedKey: string; order: PatientOrder; phone: string | null }) {
  const [order, setOrder] = useState(rendered);
  const s = order.shipment;
  return (
    <div className="space-y-8">
      <p>
        <a href={portalPath(embedKey)} className={textLink}>
          ← All your orders
        </a>
      </p>

      <section aria-labelledby="order-status" className={`${card} space-y-2`}>
        <h2 id="order-status" className="sr-only">
          Status
        </h2>
        <StatusBadge label={order.statusLabel} />
        <p className="text-base" data-testid="order-next-step">
          {order.nextStep}
        </p>
        <p className="text-sm text-slate-600">Ordered {formatDay(order.createdAt)}</p>
      </section>

      {s && (
        <section aria-labelledby="order-tracking" className="space-y-2">
          <h2 id="order-tracking" className={sectionTitle}>
            Tracking
          </h2>
          <dl className={`${card} grid grid-cols-1 gap-x-4 gap-y-1 text-base sm:grid-cols-[max-content_1fr]`}>
            <dt className="font-medium text-slate-600">Carrier</dt>
            <dd className="break-words">{s.carrier}</dd>
            <dt className="font-medium text-slate-600">Tracking number</dt>
            <dd className="break-all" data-testid="tracking-number">
              {s.trackingNumber}
            </dd>
            {s.estimatedDelivery && (
              <>
                <dt className="font-medium text-slate-600">Expected delivery</dt>
                <dd>{formatDay(s.estimatedDelivery)}</dd>
              </>
            )}
            {s.deliveredAt && (
              <>
                <dt className="font-medium text-slate-600">Delivered</dt>
                <dd>{formatDay(s.deliveredAt)}</dd>
              </>
            )}
          </dl>
          {s.trackingUrl && (
            <p>
              <a href={s.trackingUrl} rel="noreferrer" className={textLink}>
                Track your package with {s.carrier}
              </a>
            </p>
          )}
        </section>
      )}

      <section aria-labelledby="order-medications" className="space-y-2">
        <h2 id="order-medications" className={sectionTitle}>
          What is in it
        </h2>
        <ul className="space-y-2">
          {order.medications.map((m, i) => (
            <li key={i} className={`${card} space-y-1`}>
              <p className="text-base font-medium break-words">
                {medicationName(m)} <span className="font-normal text-slate-600">× {m.quantity}</span>
              </p>
              <p className="text-sm break-words">{m.sig}</p>
              {m.refills > 0 && <p className="text-sm text-slate-600">{m.refills === 1 ? '1 refill' : `${m.refills} refills`}</p>}
            </li>
          ))}
        </ul>
        {order.pharmacy && <p className="text-sm text-slate-700">Filled by {order.pharmacy.name}</p>}
      </section>

      <section aria-labelledby="order-timeline" className="space-y-2">
        <h2 id="order-timeline" className={sectionTitle}>
          What happened so far
        </h2>
        <ol className="space-y-2 border-l-2 border-indigo-700/30 pl-4">
          {order.timeline.map((t, i) => (
            <li key={i}>
              <p className="text-base font-medium">{t.label}</p>
              <p className="text-sm text-slate-600">{formatDay(t.at)}</p>
              {t.note && <p className="text-sm">{t.note}</p>}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="portal-shipping" className="space-y-3">
        <h2 id="portal-shipping" className={sectionTitle}>
          Shipping address
        </h2>
        {order.canChangeShipping ? (
          <ShippingForm embedKey={embedKey} orderId={order.id} address={order.shippingAddress} phone={phone} onSaved={setOrder} />
        ) : (
          <>
            {order.shippingAddress && (
              <p className={`${card} text-base break-words`}>
                <AddressLines address={order.shippingAddress} />
              </p>
            )}
            <p className="text-sm text-slate-700">
              {order.status === 'cancelled' ? 'This order was cancelled.' : 'This order has gone to the pharmacy, so its address can no longer change here. Contact your clinic if it must.'}
            </p>
          </>
        )}
      </section>
    </div>
  );
}
