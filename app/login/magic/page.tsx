import { AuthCard } from '@/components/console/auth-card';
import { MagicLinkSignIn } from '@/components/console/magic-link-sign-in';

export default async function MagicLinkPage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <AuthCard title="Signing in">{token ? <MagicLinkSignIn token={token} /> : <p>This link has no token.</p>}</AuthCard>;
}
