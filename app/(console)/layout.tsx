import { ConsoleShell } from '@/components/console/shell';
import { requireConsoleSession } from '@/lib/console/session';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const { me } = await requireConsoleSession();
  return <ConsoleShell me={me}>{children}</ConsoleShell>;
}
