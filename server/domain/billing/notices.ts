import { eq, isNull } from 'drizzle-orm';
import { users, type DunningStage } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { MailMessage, Mailer } from '@/server/integrations/mail/mailer';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { readAccount } from './accounts';
import { healthOf } from './health';
import { NOTIFIED_STAGES } from './stages';

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC` : null);

interface NoticeFacts {
  tenantName: string;
  sandbox: boolean;
  stage: DunningStage;
  amountDueCents: number;
  attemptCount: number;
  nextActionAt: string | null;
  billingUrl: string;
}

// What each notified stage means, what stops working, and what the next step would take away.
const STAGE_TEXT: Partial<Record<DunningStage, { subject: string; means: string; next: string | null }>> = {
  warning: {
    subject: 'Payment past due: AI generation and new experiments are paused',
    means:
      'Your account is now in the warning stage. Orders keep routing to pharmacies, but AI generation (flow and intake drafts) ' +
      'and starting new experiments are refused until the payment goes through.',
    next: 'the account becomes restricted: new order approvals and new public flow sessions will be refused as well.',
  },
  restricted: {
    subject: 'Payment past due: new approvals and new flow sessions are refused',
    means:
      'Your account is now restricted. New order approvals and new public flow sessions are refused (sessions already started may ' +
      'finish), and AI generation and new experiments stay paused. Orders already approved keep moving.',
    next: 'the account is suspended: creating new orders will be refused as well.',
  },
  suspended: {
    subject: 'Account suspended for non-payment: new orders are refused',
    means:
      'Your account is now suspended. Creating orders, approving orders, new public flow sessions, AI generation and new experiments ' +
      'are refused. Reads and exports keep working, and every order already on its way keeps moving to delivery: ' +
      'no prescription already dispatched is abandoned.',
    next: null,
  },
};

/** The owners' mail for a dunning stage. Only billing facts: never a patient, an order or anything clinical. */
export function billingNoticeText(f: NoticeFacts): { subject: string; text: string } | null {
  const t = STAGE_TEXT[f.stage];
  if (!t) return null;
  const nextStep = when(f.nextActionAt);
  const lines = [
    'Hello,',
    '',
    `The payment of ${dollars(f.amountDueCents)} for ${f.tenantName}'s Fulfillment Rail subscription is past due` +
      (f.attemptCount > 0 ? ` (${f.attemptCount} attempt${f.attemptCount === 1 ? '' : 's'} declined).` : '.'),
    '',
    `What this means: ${t.means}`,
    ...(t.next && nextStep ? ['', `If it stays unpaid, on ${nextStep} ${t.next}`] : []),
    '',
    `How to pay: open ${f.billingUrl} and choose "Manage payment" to pay the open invoice or update the card. ` +
      'Everything returns as soon as the payment succeeds.',
    ...(f.sandbox ? ['', 'This is the sandbox rehearsal account: nothing real was charged and live routing is not affected.'] : []),
  ];
  return { subject: `${f.sandbox ? '[Sandbox] ' : ''}${t.subject} (${f.tenantName})`, text: lines.join('\n') };
}

export interface NoticeRequest {
  stage: DunningStage;
  /** When the stage change that asked for this notice was recorded (its job's creation). */
  requestedAt: Date;
}

/**
 * Mails every active owner of the tenant about the stage the account entered. A stale notice is not sent:
 * the account is no longer in that stage (paid meanwhile, or a later stage with its own notice), or it
 * entered the stage again after this notice was asked for (that entry has its own).
 * Returns how many messages went out.
 */
export async function sendBillingNotice(q: Queryable, mailer: Mailer, scope: Scope, req: NoticeRequest, consoleUrl: string): Promise<number> {
  const { stage } = req;
  if (!NOTIFIED_STAGES.includes(stage)) return 0;
  const [tenant, account] = await Promise.all([requireTenant(q, scope.tenantId), readAccount(q, scope)]);
  const health = healthOf(account, now());
  if (health.stage !== stage || account.stage !== stage) return 0;
  if (account.stageChangedAt && account.stageChangedAt > req.requestedAt) return 0;
  const notice = billingNoticeText({
    tenantName: tenant.name,
    sandbox: !scope.livemode,
    stage,
    amountDueCents: health.amountDueCents,
    attemptCount: health.attemptCount,
    nextActionAt: health.nextActionAt,
    billingUrl: `${consoleUrl}/billing`,
  });
  if (!notice) return 0;
  const owners = await q
    .select({ email: users.email })
    .from(users)
    .where(scoped(q, scope).where(users, eq(users.role, 'owner'), isNull(users.deactivatedAt)));
  for (const owner of owners) {
    const message: MailMessage = { to: owner.email, ...notice };
    await mailer.send(message);
  }
  return owners.length;
}
