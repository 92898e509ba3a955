import { MfaEnrollment } from '@/components/console/mfa-enrollment';
import { ProfileCard } from '@/components/console/profile-card';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Account · Fulfillment Rail' };

export default async function AccountPage() {
  const { me, token } = await requireConsoleSession();
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-2xl font-semibold text-slate-900">Account</h1>
      <ProfileCard me={me} />
      <MfaEnrollment token={token} enabled={me.user.mfaEnabled} isProvider={me.user.role === 'provider'} />
    </div>
  );
}
