'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, card, CheckboxField, SelectField } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { OrderApproveButton } from './order-approve-button';
import { useOrdersChanged } from './order-data';
import { OrderDeclineButton } from './order-decline-button';
import { isCancellable, type OrderDetail } from './order-types';
import { fullName, productLabel } from './order-ui';
import { errorParam, QueryError } from '../ui/query-state';
import { orderStatusWords } from '../ui/status-words';

/** The draft's patient and flagged fields; the patients are listed (a logged read) only once asked for. */
function ResolveDraft({ order, onDone }: { order: OrderDetail; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const changed = useOrdersChanged();
  const [asked, setAsked] = useState(false);
  const [patientId, setPatientId] = useState(order.patientId ?? '');
  const [confirmAmber, setConfirmAmber] = useState(false);
  const patients = useQuery({ ...trpc.patients.listPatients.queryOptions({}), enabled: asked });
  const resolve = useMutation(
    trpc.orders.resolveOrder.mutationOptions({
      onSuccess: (o) => {
        onDone(o.status === 'pending_approval' ? 'Resolved: the order now waits for a provider’s approval.' : `Patient set; the order is still ${orderStatusWords(o.status)} until its flagged fields are confirmed.`);
        return changed();
      },
    }),
  );
  if (!asked || patients.isPending) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton busy={asked} busyLabel="Loading patients…" onClick={() => setAsked(true)}>Resolve draft</BusyButton>
        <span className="text-slate-600">Choose the patient{order.amberFields.length ? ' and confirm the flagged fields' : ''} to send it for approval.</span>
      </div>
    );
  }
  if (patients.isError) return <QueryError error={patients.error} title="Patients could not be listed." />;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        resolve.mutate({ id: order.id, patientId, confirmAmber });
      }}
      className="space-y-3"
      aria-label="Resolve draft"
    >
      <div className="max-w-md">
        <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)} required>
          <option value="">Choose the patient…</option>
          {patients.data.map((p) => (
            <option key={p.id} value={p.id}>
              {p.lastName}, {p.firstName} ({p.dateOfBirth}{p.address ? `, ${p.address.state}` : ''})
            </option>
          ))}
        </SelectField>
        {resolve.isError && errorParam(resolve.error) === 'patientId' && <QueryError error={resolve.error} />}
      </div>
      {order.amberFields.length > 0 && (
        <CheckboxField label={`I checked the flagged fields: ${order.amberFields.join(', ')}`} checked={confirmAmber} onChange={(e) => setConfirmAmber(e.target.checked)} />
      )}
      {resolve.isError && errorParam(resolve.error) !== 'patientId' && <QueryError error={resolve.error} title="The draft was not resolved." />}
      <BusyButton type="submit" busy={resolve.isPending} busyLabel="Resolving…">Resolve</BusyButton>
    </form>
  );
}

/**
 * What can be done to an order from its page, by status: approve or decline (pending_approval), resolve a
 * draft (patient, flagged fields), reroute and then submit a rejected one, cancel (after a confirmation).
 * Every change invalidates the order's queries, so the status, pharmacy and timeline shown are the API's.
 */
export function OrderActions({ order, canWrite, isProvider, readsPatients, pharmacies }: {
  order: OrderDetail;
  canWrite: boolean;
  isProvider: boolean;
  readsPatients: boolean;
  /** Pharmacies a rejected order may be pointed at, when the role may list them. */
  pharmacies: { id: string; name: string }[] | null;
}) {
  const trpc = useTRPC();
  const changed = useOrdersChanged();
  const pharmacyName = (id: string) => pharmacies?.find((p) => p.id === id)?.name ?? (order.pharmacyConnectionId === id ? order.pharmacy?.name : undefined);
  // A reroute's notice names the pharmacy when shown, not when the answer arrives: the list of pharmacies
  // may still be loading then, and the order read again after the reroute names its new pharmacy too.
  const [notice, setNotice] = useState<string | { reroutedTo: string }>();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [connectionId, setConnectionId] = useState('');
  // Kept after the order leaves pending_approval, so the approval's or decline's outcome stays on screen.
  const [handled, setHandled] = useState<'approved' | 'declined'>();
  const done = (message: string | { reroutedTo: string }) => {
    setNotice(message);
    return changed();
  };
  const cancel = useMutation(
    trpc.orders.cancelOrder.mutationOptions({
      onSuccess: (o) => {
        setConfirmCancel(false);
        return done(`Order cancelled (${orderStatusWords(o.status)}).`);
      },
      onError: () => setConfirmCancel(false),
    }),
  );
  const reroute = useMutation(
    trpc.orders.rerouteOrder.mutationOptions({
      onSuccess: (r) => done(r.rerouted ? { reroutedTo: r.connectionId } : 'No other pharmacy can fill this order; it still points at the one that rejected it.'),
    }),
  );
  const submit = useMutation(trpc.orders.submitOrder.mutationOptions({ onSuccess: (o) => done(`Submitted: the order is now ${orderStatusWords(o.status)}.`) }));
  const failed = [cancel, reroute, submit].find((m) => m.isError)?.error;
  const shownNotice = typeof notice === 'object' ? `Rerouted to ${pharmacyName(notice.reroutedTo) ?? 'the next pharmacy'}. Submit it to send it there.` : notice;

  const s = order.status;
  const patient = order.patient ? fullName(order.patient) : null;
  const showResolve = canWrite && s === 'draft';
  const showReroute = canWrite && s === 'rejected';
  const showSubmit = canWrite && s === 'approved' && !!order.approvedAt;
  const showCancel = canWrite && isCancellable(s);
  const showApprove = s === 'pending_approval' || handled;
  if (!showApprove && !showResolve && !showReroute && !showSubmit && !showCancel && !shownNotice && !failed) return null;

  return (
    <section aria-labelledby="order-actions" className={`${card} space-y-4 text-sm`}>
      <h2 id="order-actions" className="text-base font-semibold">Actions</h2>

      {showApprove && (
        <div className="flex flex-wrap items-start gap-3">
          {handled !== 'declined' && (
          <OrderApproveButton
            subject={{
              orderId: order.id,
              patient,
              state: readsPatients && order.patient ? (order.patient.address?.state ?? null) : undefined,
              items: order.prescriptions.map((l) => `${productLabel(l)} × ${l.quantity} · ${l.sig}`),
            }}
            onApproved={() => setHandled('approved')}
          />
          )}
          {isProvider && handled !== 'approved' && <OrderDeclineButton orderId={order.id} patient={patient} onDeclined={() => setHandled('declined')} />}
        </div>
      )}

      {showResolve && <ResolveDraft order={order} onDone={done} />}

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
          <BusyButton busy={reroute.isPending} busyLabel="Rerouting…" onClick={() => reroute.mutate({ id: order.id, ...(connectionId ? { connectionId } : {}) })}>Reroute</BusyButton>
        </div>
      )}

      {showSubmit && (
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton busy={submit.isPending} busyLabel="Submitting…" onClick={() => submit.mutate({ id: order.id })}>Submit to pharmacy</BusyButton>
          <span className="text-slate-600">Sends the approved order to {order.pharmacy?.name ?? 'its pharmacy'}.</span>
        </div>
      )}

      {showCancel && <BusyButton variant="danger" onClick={() => setConfirmCancel(true)}>Cancel order</BusyButton>}
      <ConfirmDialog
        open={confirmCancel}
        title={`Cancel this order${patient ? ` for ${patient}` : ''}?`}
        confirmLabel="Yes, cancel order"
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate({ id: order.id })}
        onCancel={() => setConfirmCancel(false)}
      >
        <p>
          This cannot be undone.
          {['submitting', 'submitted', 'accepted', 'shipped'].includes(s) && ' The pharmacy is asked to cancel it too.'}
        </p>
      </ConfirmDialog>

      {failed && (
        <div data-testid="order-action-error">
          <QueryError error={failed} title="The order was not changed." />
        </div>
      )}
      {shownNotice && <p role="status" data-testid="order-action-status" className="text-emerald-800">{shownNotice}</p>}
    </section>
  );
}
