import { eq } from 'drizzle-orm';
import { patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { readSettings } from './settings';
import { verifyUnsubscribeToken } from './unsubscribe-token';
import { escapeHtml, styleHashSource } from '@/server/lib/html';

/**
 * `GET /unsubscribe?token=…`, the signed link in every notice (DESIGN decision 41): the patient it names stops
 * getting that channel at once (`patients.notify_email` or `notify_sms` false), and the page says so. A notice
 * already queued is not sent either: the worker reads the choice when it sends. Opting out again says the same.
 * A missing, altered or foreign token is a 400 page and changes nothing. A plain page, no script, nothing loaded.
 */
const CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#0f172a;background:#f8fafc}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #cbd5e1;border-radius:8px}
h1{margin:0 0 .75rem;font-size:1.375rem}p{margin:.5rem 0}`;

export const UNSUBSCRIBE_PAGE_CSP = ["default-src 'none'", `style-src ${styleHashSource(CSS)}`, "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');


function page(heading: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(heading)}</title><style>${CSS}</style></head>
<body><main><h1>${escapeHtml(heading)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</main></body></html>`;
}

export interface UnsubscribeAnswer {
  status: number;
  html: string;
}

const invalid = (): UnsubscribeAnswer => ({
  status: 400,
  html: page('This link does not work', ['This unsubscribe link is incomplete or was changed, so nothing was changed. Open the link from the message again, or contact your clinic.']),
});

/** Opts out the patient and channel the token names; `apply` false (a HEAD, a link checker) only checks the token. */
export async function unsubscribe(db: Db, secret: Uint8Array, token: string | null, apply: boolean): Promise<UnsubscribeAnswer> {
  const claims = token ? verifyUnsubscribeToken(secret, token) : null;
  if (!claims) return invalid();
  const scope = { tenantId: claims.tenantId, livemode: claims.livemode };
  const set = claims.channel === 'email' ? { notifyEmail: false } : { notifySms: false };
  const [found] = apply
    ? await db.update(patients).set({ ...set, updatedAt: now() }).where(scoped(db, scope).where(patients, eq(patients.id, claims.patientId))).returning({ id: patients.id })
    : await db.select({ id: patients.id }).from(patients).where(scoped(db, scope).where(patients, eq(patients.id, claims.patientId))).limit(1);
  if (!found) return { status: 404, html: page('Nothing to unsubscribe', ['We could not find who this link was for, so nothing was changed. Contact your clinic.']) };
  const settings = await readSettings(db, scope);
  const clinic = settings.senderName ?? (await requireTenant(db, scope.tenantId)).name;
  const what = claims.channel === 'email' ? 'e-mails' : 'text messages';
  return {
    status: 200,
    html: page(`You are unsubscribed`, [
      `You will no longer get ${what} from ${clinic} about your requests and orders.`,
      'Changed your mind? Sign in to your patient portal to turn them back on.',
    ]),
  };
}
