import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { query } from './dispatch';
import type { TestApp } from './harness';
import { waitFor } from './webhooks';

export interface NoticeRow {
  id: string;
  subject_id: string;
  milestone: string;
  channel: string;
  cause: string | null;
  status: string;
  skip_reason: string | null;
  attempts: number;
  last_error: string | null;
  body: string | null;
  subject: string | null;
  via: string | null;
}

/** The notices of an order or submission, oldest first. */
export const noticesOf = (app: TestApp, subjectId: string) =>
  query<NoticeRow>(app, sql`select id, subject_id, milestone, channel, cause, status, skip_reason, attempts, last_error, body, subject, via from patient_notices where subject_id = ${subjectId} order by id`);

/** Waits until the subject has `count` notices and none of them is still pending (each sent, skipped or failed). */
export async function noticesSettled(app: TestApp, subjectId: string, count: number) {
  return waitFor(
    async () => {
      const rows = await noticesOf(app, subjectId);
      return rows.length === count && rows.every((r) => r.status !== 'pending') && rows;
    },
    { what: `${count} settled notices of ${subjectId}` },
  );
}

/** The text messages the SMS outbox holds, oldest first. */
export function readSmsOutbox(dir: string): { to: string; text: string; sentAt: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

/** The unsubscribe link in a message's text. */
export function unsubscribeLink(text: string): string {
  const m = /https?:\/\/\S+\/unsubscribe\?token=\S+/.exec(text);
  if (!m) throw new Error(`no unsubscribe link in: ${text}`);
  return m[0];
}
