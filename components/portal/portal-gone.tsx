import { IntakeShell } from '@/components/intake/intake-shell';

/** A portal address that shows nothing: an unknown or revoked key, or an order that is not the patient's. */
export function PortalGone() {
  return (
    <IntakeShell title="This page is not available">
      <p className="text-base text-slate-700">
        The address may be mistyped, or the clinic has taken this page down. If you followed a link from your clinic, visit its website or contact it directly.
      </p>
    </IntakeShell>
  );
}
