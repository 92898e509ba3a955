'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import { BusyButton, card, CheckboxField, ErrorAlert, SelectField, type ApiErrorBody } from './catalog-ui';
import type { Patient } from './patient-types';
import { OrderApproveButton } from './order-approve-button';
import { isCancellable, type Order, type OrderDetail, type RerouteResult } from './order-types';

type Busy = 'cancel' | 'resolve' | 'reroute' | 'submit' | 'patients';

/**
 * What can be done to an order from its page, by status: approve (pending_approval), resolve a draft
 * (patient, flagged fields), reroute and then submit a rejected one, cancel (with a confirmation).
 * Every change re-reads the page, so the status, pharmacy and timeline shown are the API's.
 */
export function OrderActions({
  order,
  blockedReason,
  canWrite,
  pharmacies,
  token,
  mode,
}: {
  order: OrderDetail;
  blockedReason: string | null;
  canWrite: boolean;
  /** Pharmacies a rejected order may be pointed at, when the role may list them. */
  pharmacies: { id: string; name: string }[] | null;
  token: string;
  mode: string;
}) {
  const router = useRouter();
  const auth = { token, mode };
  const path = `/orders/${encodeURIComponent(order.id)}`;
  const [busy, setBusy] = useState<Busy>();
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [patients, setPatients] = useState<Patient[]>();
  const [patientId, setPatientId] = useState(order.patientId ?? '');
  const [confirmAmber, setConfirmAmber] = useState(false);
  const [connectionId, setConnectionId] = useState('');
  // Kept after the refresh that follows an approval, so its outcome stays on screen.
  const [approved, setApproved] = useState(false);

  async function run<T>(kind: Busy, method: string, url: string, body: unknown, done: (data: T) => string) {
    setBusy(kind);
    setNotice(undefined);
    const res = await apiCall<T>(method, url, body, auth);
    setBusy(undefined);
    if (!res.ok) return setError(res.error ?? { message: 'The order could not be changed.' });
    setError(undefined);
    setNotice(done(res.data));
    router.refresh();
  }

  const cancel = () =>
    run<Order>('cancel', 'POST', `${path}/cancel`, {}, (o) => {
      setConfirmCancel(false);
      return `Order cancelled (${o.status}).`;
    });

  const resolve = (e: React.FormEvent) => {
    e.preventDefault();
    return run<Order>('resolve', 'POST', `${path}/resolve`, { patientId, confirmAmber }, (o) =>
      o.status === 'pending_approval' ? 'Resolved: the order now waits for a provider’s approval.' : `Patient set; the order is still ${o.status} until its flagged fields are confirmed.`,
    );
  };

  const reroute = () =>
    run<RerouteResult>('reroute', 'POST', `${path}/reroute`, connectionId ? { connectionId } : {}, (r) =>
      r.rerouted
        ? `Rerouted to ${pharmacies?.find((p) => p.id === r.connectionId)?.name ?? r.connectionId}. Submit it to send it there.`
        : 'No other pharmacy can fill this order; it still points at the one that rejected it.',
    );

  const submit = () => run<Order>('submit', 'POST', `${path}/submit`, {}, (o) => `Submitted: the order is now ${o.status}.`);

  async function loadPatients() {
    setBusy('patients');
    const res = await apiCall<Patient[]>('GET', '/patients?limit=100', undefined, auth);
    setBusy(undefined);
    if (!res.ok) return setError(res.error ?? { message: 'Patients could not be loaded.' });
    setPatients(res.data);
  }

  const s = order.status;
  const showResolve = canWrite && s === 'draft';
  const showReroute = canWrite && s === 'rejected';
  const showSubmit = canWrite && s === 'approved' && !!order.approvedAt;
  const showCancel = canWrite && isCancellable(s);
  const showApprove = s === 'pending_approval' || approved;
  // Kept while it has something to say, e.g. that the order was just cancelled.
  if (!showApprove && !showResolve && !showReroute && !showSubmit && !showCancel && !notice && !error) return null;

  return (
    <section aria-labelledby="order-actions" className={`${card} space-y-4 text-sm`}>
      <h2 id="order-actions" className="text-base font-semibold">Actions</h2>

      {showApprove && (
        <OrderApproveButton
          orderId={order.id}
          blockedReason={blockedReason}
          token={token}
          mode={mode}
          onApproved={() => {
            setApproved(true);
            router.refresh();
          }}
        />
      )}

      {showResolve &&
        (patients ? (
          <form onSubmit={resolve} className="space-y-3" aria-label="Resolve draft">
            <div className="max-w-md">
              <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)} required>
                <option value="">Choose the patient…</option>
                {patients.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.lastName}, {p.firstName} ({p.dateOfBirth}{p.address ? `, ${p.address.state}` : ''})
                  </option>
                ))}
              </SelectField>
            </div>
            {order.amberFields.length > 0 && (
              <CheckboxField label={`I checked the flagged fields: ${order.amberFields.join(', ')}`} checked={confirmAmber} onChange={(e) => setConfirmAmber(e.target.checked)} />
            )}
            <BusyButton type="submit" busy={busy === 'resolve'} busyLabel="Resolving…">Resolve</BusyButton>
          </form>
        ) : (
          <div className="flex flex-wrap items-center gap-3">
            <BusyButton busy={busy === 'patients'} busyLabel="Loading patients…" onClick={loadPatients}>Resolve draft</BusyButton>
            <span className="text-slate-600">
              Choose the patient{order.amberFields.length ? ' and confirm the flagged fields' : ''} to send it for approval.
            </span>
          </div>
        ))}

      {showReroute && (
        <div className="flex flex-wrap items-end gap-3">
          {pharmacies && (
            <div className="min-w-64">
              <SelectField label="Reroute to" value={connectionId} onChange={(e) => setConnectionId(e.target.value)}>
                <option value="">The next best pharmacy (routing policy)</option>
                {pharmacies
                  .filter((p) => p.id !== order.pharmacyConnectionId)
                  .map((p) => (
                    <option key={p.id} value={p.id}>{p.name}</option>
                  ))}
              </SelectField>
            </div>
          )}
          <BusyButton busy={busy === 'reroute'} busyLabel="Rerouting…" onClick={reroute}>Reroute</BusyButton>
        </div>
      )}

      {showSubmit && (
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton busy={busy === 'submit'} busyLabel="Submitting…" onClick={submit}>Submit to pharmacy</BusyButton>
          <span className="text-slate-600">Sends the approved order to {order.pharmacy?.name ?? 'its pharmacy'}.</span>
        </div>
      )}

      {showCancel &&
        (confirmCancel ? (
          <div role="group" aria-label="Confirm cancellation" className="space-y-2 rounded-md border border-red-200 bg-red-50 p-3">
            <p className="text-red-900">
              Cancel this order? This cannot be undone.
              {['submitting', 'submitted', 'accepted', 'shipped'].includes(s) && ' The pharmacy is asked to cancel it too.'}
            </p>
            <div className="flex gap-2">
              <BusyButton variant="danger" busy={busy === 'cancel'} busyLabel="Cancelling…" onClick={cancel}>Yes, cancel order</BusyButton>
              <BusyButton variant="secondary" onClick={() => setConfirmCancel(false)}>Keep order</BusyButton>
            </div>
          </div>
        ) : (
          <BusyButton variant="danger" onClick={() => setConfirmCancel(true)}>Cancel order</BusyButton>
        ))}

      {error && <ErrorAlert error={error} testId="order-action-error" />}
      {notice && <p role="status" data-testid="order-action-status" className="text-emerald-800">{notice}</p>}
    </section>
  );
}
