import { card, formatCents, formatDays, StatusBadge, tableHead } from '../catalog/catalog-ui';
import { CHANNEL_WORDS, MILESTONE_WORDS, NOTICE_STATUS_WORDS, SKIP_WORDS } from '../notices/notice-words';
import { TableScroll } from '../ui/data-table';
import { FhirLinks } from '../ui/fhir-links';
import { fhirPaths } from '@/server/domain/fhir/shared/ids';
import { formatDateTime } from '../ui/format';
import type { OrderDetail, OrderNotice, OrderTimelineEntry } from './order-types';
import { fullName, Named, productLabel } from './order-ui';
import { orderStatusWords } from '../ui/status-words';
import { RejectionReason, TimelineReason } from './order-reason';

/** The read-only parts of an order's page (PHI: the patient and the timeline's notes). */

/** Names of the people and keys the order mentions, by id. */
export type Names = Map<string, { name: string }>;

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section aria-labelledby={`order-${title.toLowerCase()}`} data-testid={testId} className={`${card} space-y-3 text-sm`}>
      <h2 id={`order-${title.toLowerCase()}`} className="text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Facts({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-500">{k}</dt>
          <dd className="text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function OrderFacts({ order, names }: { order: OrderDetail; names: Names }) {
  const rows: [string, React.ReactNode][] = [
    ['Priority', order.priority],
    ['Source', order.source],
    ['Store order id', order.foreignOrderId ?? '—'],
    ['Created', formatDateTime(order.createdAt)],
    ['Updated', formatDateTime(order.updatedAt)],
    ['Approved', order.approvedAt ? <span key="a" className="inline-flex flex-wrap items-center gap-x-1">{formatDateTime(order.approvedAt)} by {order.approvedBy ? <Named id={order.approvedBy} name={names.get(order.approvedBy)?.name} /> : '—'}</span> : '—'],
  ];
  if (order.rejectionReasonCode) rows.push(['Rejection reason', <span key="r" data-testid="order-rejection"><RejectionReason code={order.rejectionReasonCode} /></span>]);
  if (order.pharmacyRecall === 'not_recalled') rows.push(['Pharmacy recall', <span key="p" data-testid="order-not-recalled" className="font-medium text-red-700">The pharmacy could not recall this order after it was cancelled; it may already be on its way to the patient.</span>]);
  if (order.pharmacyRecall === 'recalled') rows.push(['Pharmacy recall', <span key="p" data-testid="order-recalled">The pharmacy confirmed the cancellation.</span>]);
  if (order.amberFields.length) rows.push(['Fields to confirm', <span key="f" data-testid="order-amber">{order.amberFields.join(', ')}</span>]);
  return (
    <Section title="Order" testId="order-facts">
      <Facts rows={rows} />
    </Section>
  );
}

export function OrderPatient({ order, readsPatients }: { order: OrderDetail; readsPatients: boolean }) {
  const p = order.patient;
  return (
    <Section title="Patient" testId="order-patient">
      {!order.patientId ? (
        <p className="text-slate-600">No patient chosen yet.</p>
      ) : !p || !readsPatients ? (
        // The API itself leaves the record out for callers without patients.read.
        <p className="text-slate-600">
          Your role does not read patient records, so the patient&apos;s details are not shown.
        </p>
      ) : (
        <Facts
          rows={[
            ['Name', <Named key="n" id={p.id} name={fullName(p)} href={`/patients/${p.id}`} />],
            ['Date of birth', p.dateOfBirth],
            ['State', <span key="s" data-testid="order-patient-state">{p.address?.state ?? 'No shipping address'}</span>],
          ]}
        />
      )}
    </Section>
  );
}

export function OrderPrescriptions({ order }: { order: OrderDetail }) {
  return (
    <Section title="Prescriptions">
      <TableScroll label="Prescriptions">
      <table className="w-full text-left">
        <caption className="sr-only">Prescriptions</caption>
        <thead className={tableHead}>
          <tr><th className="py-1">Product</th><th>SKU</th><th>Form</th><th>Quantity</th><th>Sig</th><th>Refills</th></tr>
        </thead>
        <tbody>
          {order.prescriptions.map((p, i) => (
            <tr key={i} data-testid="prescription-row" className="border-t border-slate-100">
              <td className="py-1.5 font-medium">{productLabel(p)}</td>
              <td className="font-mono text-xs">{p.sku ?? '—'}</td>
              <td>{p.form ?? '—'}</td>
              <td>{p.quantity}</td>
              <td>{p.sig}</td>
              <td>{p.refills}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </TableScroll>
      {/* Each line is a FHIR MedicationRequest; the patient's everything links them with the rest. */}
      <FhirLinks
        links={[
          ...fhirPaths.orderLines(order.id, order.prescriptions.length).map((path, i) => ({ label: `Line ${i + 1}`, path })),
          ...(order.patientId ? [{ label: 'Patient', path: fhirPaths.patient(order.patientId) }] : []),
        ]}
      />
    </Section>
  );
}

export function OrderPharmacy({ order }: { order: OrderDetail }) {
  const ph = order.pharmacy;
  return (
    <Section title="Pharmacy" testId="order-pharmacy">
      {ph ? (
        <Facts
          rows={[
            ['Name', <span key="n" data-testid="order-pharmacy-name">{ph.name}</span>],
            ['Adapter', ph.adapter],
            ['Connection', <Named key="c" id={ph.id} />],
          ]}
        />
      ) : (
        <p className="text-slate-600">{order.routing ? 'No pharmacy could fill this order.' : 'Not routed yet: routing picks a pharmacy when a provider approves the order.'}</p>
      )}
      {order.routing && <RoutingWhy routing={order.routing} />}
    </Section>
  );
}

/** Why routing chose this pharmacy (or none), as it decided at the time; the same words the routing plan gives. */
function RoutingWhy({ routing }: { routing: NonNullable<OrderDetail['routing']> }) {
  return (
    <div data-testid="order-routing" className="space-y-2 border-t border-slate-100 pt-2">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="font-medium text-slate-500">Why</span>
        <span data-testid="order-routing-reason" className="rounded bg-slate-100 px-2 py-0.5 font-mono text-xs">{routing.reason}</span>
        <span className="text-xs text-slate-500">strategy {routing.strategy} · {formatDateTime(routing.decidedAt)}</span>
      </p>
      <p data-testid="order-routing-explanation" className="text-slate-700">{routing.explanation}</p>
      {routing.priceCents !== null && routing.etaDays !== null && (
        <p className="text-slate-700">Order price there {formatCents(routing.priceCents)} · {formatDays(routing.etaDays)} for the slowest line</p>
      )}
      {routing.alternatives.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-slate-700">
          {routing.alternatives.map((a) => (
            <li key={a.connectionId} data-testid="order-routing-alternative">
              #{a.rank} {a.name}: {formatCents(a.priceCents)}, {formatDays(a.etaDays)}
            </li>
          ))}
        </ul>
      )}
      {routing.ineligible.length > 0 && (
        <ul className="list-disc pl-5 text-xs text-slate-500">
          {routing.ineligible.map((i) => (
            <li key={i.connectionId} data-testid="order-routing-ineligible">
              {i.name} could not fill {i.lines.length ? `${i.lines.length} of the lines` : 'the order'} ({i.reason})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function OrderShipmentCard({ order }: { order: OrderDetail }) {
  const s = order.shipment;
  return (
    <Section title="Shipment" testId="order-shipment">
      {s ? (
        <Facts
          rows={[
            ['Carrier', <span key="c" data-testid="shipment-carrier">{s.carrier}</span>],
            [
              'Tracking number',
              s.trackingUrl ? (
                <a key="t" href={s.trackingUrl} target="_blank" rel="noopener noreferrer" className="font-mono text-indigo-700 hover:underline">
                  {s.trackingNumber}
                </a>
              ) : (
                <span key="t" className="font-mono">{s.trackingNumber}</span>
              ),
            ],
            ['Estimated delivery', <span key="e" data-testid="shipment-eta">{s.estimatedDelivery ?? '—'}</span>],
            ['Shipped', formatDateTime(s.shippedAt)],
            ['Delivered', formatDateTime(s.deliveredAt)],
          ]}
        />
      ) : (
        <p className="text-slate-600">Not shipped yet.</p>
      )}
    </Section>
  );
}

const ACTOR = { user: 'User', key: 'API key', pharmacy: 'Pharmacy', system: 'System', patient: 'Patient (portal)' } as const;

function Actor({ t, names, pharmacy }: { t: OrderTimelineEntry; names: Names; pharmacy: OrderDetail['pharmacy'] }) {
  if (!t.actorId) return <>{ACTOR[t.actorKind]}</>;
  const name = t.actorKind === 'pharmacy' ? (pharmacy?.id === t.actorId ? pharmacy.name : undefined) : names.get(t.actorId)?.name;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1">
      <span className="text-slate-500">{ACTOR[t.actorKind]}</span> <Named id={t.actorId} name={name} />
    </span>
  );
}

/** Every status change, oldest first, as GET /v1/orders/{id} reports it, with what a person wrote about it. */
export function OrderTimeline({ order, names }: { order: OrderDetail; names: Names }) {
  return (
    <Section title="Timeline">
      <TableScroll label="Timeline">
        <table className="w-full text-left">
          <caption className="sr-only">Timeline</caption>
          <thead className={tableHead}>
            <tr><th className="px-2 py-1">Change</th><th className="px-2">When</th><th className="px-2">By</th><th className="px-2">Reason</th></tr>
          </thead>
          <tbody>
            {order.timeline.map((t, i) => (
              <tr key={i} data-testid="timeline-row" className="border-t border-slate-100 align-top">
                <td className="px-2 py-1.5 whitespace-nowrap" data-testid="timeline-change">{t.from ? `${orderStatusWords(t.from)} → ${orderStatusWords(t.to)}` : `created ${orderStatusWords(t.to)}`}</td>
                <td className="px-2 py-1.5 whitespace-nowrap">{formatDateTime(t.at)}</td>
                <td className="px-2 py-1.5"><Actor t={t} names={names} pharmacy={order.pharmacy} /></td>
                <td className="max-w-md px-2 py-1.5">
                  <TimelineReason entry={t} />
                  {t.note && <p data-testid="timeline-note" className="mt-1 break-words whitespace-pre-line text-slate-700">{t.note}</p>}
                </td>
              </tr>
            ))}
            {order.timeline.length === 0 && <tr><td colSpan={4} className="px-2 py-2 text-slate-500">No changes recorded.</td></tr>}
          </tbody>
        </table>
      </TableScroll>
    </Section>
  );
}

/** What the order's patient was told (DESIGN decision 41), as GET /v1/orders/{id}/notices reports it, oldest first. */
export function OrderNotices({ notices }: { notices: OrderNotice[] | undefined }) {
  return (
    <Section title="Patient notices" testId="order-notices">
      {!notices ? (
        <p className="text-slate-600">Loading what the patient was told…</p>
      ) : notices.length === 0 ? (
        <p className="text-slate-600">No notice yet: the patient hears when the order goes to the pharmacy, ships, is delivered or needs attention.</p>
      ) : (
        <ul className="space-y-3">
          {notices.map((n) => (
            <li key={n.id} data-testid="order-notice" className="rounded-md border border-slate-100 p-3">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium">{MILESTONE_WORDS[n.milestone].label}</span>
                <span className="text-slate-600">· {CHANNEL_WORDS[n.channel]}</span>
                <StatusBadge status={n.status} words={(s) => NOTICE_STATUS_WORDS[s] ?? s} />
                <span className="text-slate-600">{formatDateTime(n.sentAt ?? n.updatedAt)}</span>
              </p>
              {n.status === 'skipped' && n.skipReason && <p className="mt-1 text-slate-700">Not sent: {SKIP_WORDS[n.skipReason] ?? n.skipReason}.</p>}
              {n.lastError && n.status !== 'sent' && (
                <p className="mt-1 break-words text-red-800">
                  {n.status === 'pending' ? `Retrying after: ${n.lastError}` : n.lastError}
                </p>
              )}
              {n.text && (
                <details className="mt-1">
                  <summary className="cursor-pointer text-indigo-700">What was {n.status === 'sent' ? 'sent' : 'to be sent'}</summary>
                  {n.subject && <p className="mt-1 break-words"><span className="text-slate-600">Subject: </span>{n.subject}</p>}
                  <pre className="mt-1 font-sans break-words whitespace-pre-wrap text-slate-800">{n.text}</pre>
                </details>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
