import { ConsoleShell } from '@/components/console/ui/shell';
import { requireConsoleSession } from '@/web/console/session';
import { ConsoleDataProvider } from '@/web/trpc/client';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const { me } = await requireConsoleSession();
  return (
    <ConsoleDataProvider>
      <ConsoleShell me={me}>{children}</ConsoleShell>
    </ConsoleDataProvider>
  );
}
