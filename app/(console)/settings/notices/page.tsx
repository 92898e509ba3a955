import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { NoticeSettingsPage } from '@/components/console/notices/notice-settings-editor';
import { publicUrl } from '@/web/console/public-url';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Patient notices · Fulfillment Rail' };

/** DESIGN decision 41: what patients are told at each milestone, per channel, under which name, with a preview. */
export default async function PatientNoticesPage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('patients.write');
  if (allowed) await getQueryClient().prefetchQuery(trpcServer.notices.getNoticeSettings.queryOptions({}));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Patient notices</h1>
        <p className="text-sm text-slate-600">
          The e-mails and texts your {mode} patients get when their request arrives, their order goes to the pharmacy, ships, is delivered or needs attention. Each order’s page lists what was sent.
        </p>
      </div>
      {allowed ? (
        <HydrateClient>
          <NoticeSettingsPage origin={publicUrl()} />
        </HydrateClient>
      ) : (
        <NoAccess what="change patient notices" role={me.user.role} />
      )}
    </section>
  );
}
