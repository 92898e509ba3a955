import { MfaEnrollment } from '@/components/console/mfa-enrollment';
import { requireConsoleSession } from '@/server/console/session';

export default async function AccountPage() {
  const { me, token } = await requireConsoleSession();
  const rows: [string, string][] = [
    ['E-mail', me.user.email],
    ['Role', me.user.role],
    ['Clinic', me.tenant?.name ?? '—'],
    ['Mode', me.mode],
  ];
  if (me.user.provider) {
    rows.push(['NPI', `${me.user.provider.npi ?? '—'} ${me.user.provider.npiVerifiedAt ? '(verified)' : '(not verified)'}`]);
    rows.push(['Licensed in', me.user.provider.licensedStates.join(', ') || '—']);
  }
  return (
    <section className="space-y-8">
      <h1 className="text-2xl font-semibold">Account</h1>
      <dl className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
        {rows.map(([k, v]) => (
          <div key={k} className="flex px-4 py-3 text-sm">
            <dt className="w-40 text-slate-500">{k}</dt>
            <dd className="font-medium text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <div>
        <h2 className="mb-3 text-lg font-semibold">Two-factor authentication</h2>
        <MfaEnrollment token={token} enabled={me.user.mfaEnabled} />
      </div>
    </section>
  );
}
