import { getServerSession } from 'next-auth';
import { ConsoleShell } from '@/components/console/shell';
import { authOptions } from '@/server/console/auth-options';
import { requireConsoleSession } from '@/server/console/session';

export const dynamic = 'force-dynamic';

export default async function ConsoleLayout({ children }: { children: React.ReactNode }) {
  const { me, token } = await requireConsoleSession();
  const refreshToken = ((await getServerSession(authOptions)) as { refreshToken?: string } | null)?.refreshToken;
  return (
    <ConsoleShell me={me} token={token} refreshToken={refreshToken}>
      {children}
    </ConsoleShell>
  );
}
