import { IntakeShell } from '@/components/intake/intake-shell';

export const metadata = { title: 'Link no longer valid' };

export default function HostedLinkGone() {
  return (
    <IntakeShell title="This link is no longer valid">
      <p className="text-base text-slate-700">
        Questionnaire links work once and for seven days. This one has been used, has expired, or was mistyped. If you still need to answer, ask your clinic
        to send you a new link.
      </p>
    </IntakeShell>
  );
}
