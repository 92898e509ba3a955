import { requireConsoleSession } from '@/lib/console/session';

export default async function OverviewPage() {
  const { me } = await requireConsoleSession();
  return (
    <section>
      <h1 className="text-2xl font-semibold">Overview</h1>
      <dl className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-3">
        {[
          ['Clinic', me.tenant?.name ?? '—'],
          ['Plan', me.tenant?.plan ?? '—'],
          ['Mode', me.mode],
        ].map(([k, v]) => (
          <div key={k} className="rounded-lg border border-slate-200 bg-white p-4">
            <dt className="text-xs uppercase tracking-wide text-slate-500">{k}</dt>
            <dd className="mt-1 text-lg font-medium capitalize">{v}</dd>
          </div>
        ))}
      </dl>
      {!me.user.mfaEnabled && (
        <p className="mt-6 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Two-factor authentication is off. Turn it on from your Account page{me.user.role === 'provider' ? ': providers need it to approve anything.' : '.'}
        </p>
      )}
    </section>
  );
}
