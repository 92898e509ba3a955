import type { Db } from '@/server/db/types';
import type { Mailer } from '@/server/integrations/mail/mailer';
import type { AttemptLimits } from './attempt-limits';

/** What the sign-in flows need from the process: the database, the signing secret, limits and mail. */
export interface AuthDeps {
  db: Db;
  secret: Uint8Array;
  /**
   * The same secret as text, for the console in this process: next-auth's cookie key and the proof on the
   * browser address it forwards (server/api/client-ip.ts). Handed over here, never through process.env.
   */
  consoleSecret: string;
  limits: AttemptLimits;
  mailer: Mailer;
  /** Base URL of the console, for links in e-mails. */
  publicUrl: string;
}
