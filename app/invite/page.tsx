import Link from 'next/link';
import { AuthCard } from '@/components/console/auth/auth-card';
import { InviteForm } from '@/components/console/auth/invite-form';

export const metadata = { title: 'Accept your invitation · Fulfillment Rail' };

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard title="Accept your invitation">
      {token ? (
        <InviteForm token={token} />
      ) : (
        <p className="text-sm text-slate-600">
          This invitation link is incomplete. Ask your clinic admin for a new one, or <Link href="/login" className="font-medium text-indigo-700 hover:underline">sign in</Link>.
        </p>
      )}
    </AuthCard>
  );
}
