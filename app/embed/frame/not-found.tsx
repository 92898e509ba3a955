import { IntakeShell } from '@/components/intake/intake-shell';

export const metadata = { title: 'Form not available', robots: { index: false, follow: false } };

export default function FrameGone() {
  return (
    <IntakeShell title="This form is not available">
      <p className="text-base text-slate-700">The clinic has taken this form down or the page that shows it is set up wrongly. Please contact the clinic directly.</p>
    </IntakeShell>
  );
}
