import { AuthCard } from '@/components/console/auth-card';
import { InviteForm } from '@/components/console/invite-form';

export default async function InvitePage({ searchParams }: { searchParams: Promise<{ token?: string }> }) {
  const { token } = await searchParams;
  return <AuthCard title="Accept your invitation">{token ? <InviteForm token={token} /> : <p>This link has no token.</p>}</AuthCard>;
}
