import Link from 'next/link';
import { AuthCard } from '@/components/console/auth/auth-card';
import { MagicLinkSignIn } from '@/components/console/auth/magic-link-sign-in';

export const metadata = { title: 'Signing in · Fulfillment Rail' };

export default async function MagicLinkPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return (
    <AuthCard title="Sign in with your link">
      {token ? (
        <MagicLinkSignIn token={token} />
      ) : (
        <p className="text-sm text-slate-600">
          This link is incomplete. <Link href="/login" className="font-medium text-indigo-700 hover:underline">Request a new one</Link>.
        </p>
      )}
    </AuthCard>
  );
}
