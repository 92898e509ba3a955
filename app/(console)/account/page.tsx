import { MfaEnrollment } from '@/components/console/auth/mfa-enrollment';
import { ProfileCard } from '@/components/console/auth/profile-card';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Account · Fulfillment Rail' };

export default async function AccountPage() {
  await getQueryClient().prefetchQuery(trpcServer.auth.me.queryOptions({}));
  return (
    <HydrateClient>
      <div className="max-w-3xl space-y-6">
        <h1 className="text-2xl font-semibold text-slate-900">Account</h1>
        <ProfileCard />
        <MfaEnrollment />
      </div>
    </HydrateClient>
  );
}
