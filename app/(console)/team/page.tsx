import Link from 'next/link';
import { TeamInviteForm } from '@/components/console/auth/team-invite-form';
import { TeamMembers } from '@/components/console/auth/team-members';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, serverCaller, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Team · Fulfillment Rail' };

export default async function TeamPage() {
  const { me } = await requireConsoleSession();
  if (!me.scopes.includes('users.manage')) {
    return (
      <section className="space-y-4">
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="text-sm text-slate-600">
          Only your clinic’s owners and admins see and manage the team. Ask one of them to invite someone or change a role. Your own profile is on the{' '}
          <Link href="/account" className="font-medium text-indigo-700 hover:underline">
            Account
          </Link>{' '}
          page.
        </p>
      </section>
    );
  }
  const { roles } = await (await serverCaller()).auth.grants();
  await getQueryClient().prefetchQuery(trpcServer.users.listUsers.queryOptions({}));
  return (
    <HydrateClient>
      <section className="space-y-6">
        <h1 className="text-2xl font-semibold">Team</h1>
        <p className="text-sm text-slate-600">The people of {me.tenant?.name ?? 'this clinic'}, in both modes. You can invite, change and deactivate members up to your own role.</p>
        <TeamInviteForm roles={roles} />
        <TeamMembers meId={me.user.id} roles={roles} />
      </section>
    </HydrateClient>
  );
}
