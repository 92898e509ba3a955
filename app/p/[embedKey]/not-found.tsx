import { IntakeShell } from '@/components/intake/intake-shell';

export const metadata = { title: 'Page not available', robots: { index: false, follow: false } };

export default function PortalGone() {
  return (
    <IntakeShell title="This page is not available">
      <p className="text-base text-slate-700">
        The address may be mistyped, or the clinic has taken this page down. If you followed a link from your clinic, visit its website or contact it directly.
      </p>
    </IntakeShell>
  );
}
