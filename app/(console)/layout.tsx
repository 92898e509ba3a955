import { ConsoleShell } from '@/components/console/shell';
import { requireConsoleSession } from '@/lib/console/session';
import { ConsoleDataProvider } from '@/lib/trpc/client';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const { me } = await requireConsoleSession();
  return (
    <ConsoleDataProvider>
      <ConsoleShell me={me}>{children}</ConsoleShell>
    </ConsoleDataProvider>
  );
}
