import { timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { flows, flowSessions, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import { isUniqueViolation } from '@/server/db/unique-violation';
import type { Db } from '@/server/db/types';
import { EXTERNAL_ORDER_ID_PATTERN } from '@/server/domain/events/catalog';
import { emitEvent } from '@/server/domain/events/emit';
import { requireFeature } from '@/server/domain/ops/features';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import * as z from '@/server/lib/zod';
import { linkOrderToCheckout } from './checkout-orders';
import { checkoutKey, peekHandoffSession, verifyHandoffToken } from './checkout-token';

/** The Standard Webhooks window: a signed timestamp further than this from our clock is refused. */
const TIMESTAMP_TOLERANCE_S = 5 * 60;

export interface SignedRequest {
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

const ZCheckoutCallback = z.strictObject({
  type: z.literal('checkout.completed'),
  frToken: z.string().min(1).max(4096),
  externalOrderId: z.string().regex(EXTERNAL_ORDER_ID_PATTERN, '1 to 128 letters, digits and . _ : -'),
});

const header = (h: SignedRequest['headers'], name: string) => {
  const v = h[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};

const badSignature = (message: string, code = 'invalid_signature') => errors.unauthenticated(message, code);

/**
 * Standard Webhooks verification with the flow's checkout key, against our clock (tests move it), so the
 * library's own check (on the wall clock) is not used: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`,
 * any of the space-separated signatures may match.
 */
function verifyStoreSignature(secret: string, req: SignedRequest, at: Date) {
  const id = header(req.headers, 'webhook-id');
  const timestamp = header(req.headers, 'webhook-timestamp');
  const signatures = header(req.headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw badSignature('The callback needs webhook-id, webhook-timestamp and webhook-signature headers (Standard Webhooks).');
  const seconds = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!Number.isFinite(seconds)) throw badSignature('webhook-timestamp must be whole seconds since the epoch.');
  if (Math.abs(at.getTime() / 1000 - seconds) > TIMESTAMP_TOLERANCE_S) {
    throw badSignature('webhook-timestamp is more than five minutes away from our clock; sign with the current time.', 'stale_signature');
  }
  const expected = Buffer.from(new Webhook(checkoutKey(secret), { format: 'raw' }).sign(id, new Date(seconds * 1000), req.rawBody).slice(3));
  const matches = signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    const given = Buffer.from(value ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw badSignature('The callback signature does not verify with this flow’s checkout secret.');
}

function parseBody(raw: string) {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw errors.validation('The body is not JSON.', undefined, 'invalid_json');
  }
  const parsed = ZCheckoutCallback.safeParse(json);
  if (!parsed.success) {
    // Never the value: a store could send anything in any field.
    const issue = parsed.error.issues[0];
    const param = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.');
    throw errors.validation(`Invalid checkout callback: ${issue.message}`, param || undefined);
  }
  return parsed.data;
}

/**
 * The one read not scoped by a caller: the path names only the flow, whose tenant and mode then scope the
 * rest. An unknown id is a 404.
 */
async function flowOfCallback(db: Db, flowId: string) {
  const [flow] = await db.select().from(flows).where(eq(flows.id, flowId)).limit(1);
  if (!flow) throw errors.notFound('flow', flowId);
  return flow;
}

const secretOf = async (db: Db, scope: Scope, versionId: string | null) => (versionId ? (await scoped(db, scope).get(flowVersions, versionId))?.document.settings.checkout?.secret : undefined);

/**
 * The session `frToken` names, after checking it: issued for this flow (`fid`), signed with the checkout
 * secret of the version the session ran (the one that minted it, even if the flow's secret changed since),
 * unexpired. A session of another flow, tenant or mode is a 404 like an unknown one.
 */
async function sessionOfToken(db: Db, scope: Scope, flowId: string, token: string, at: Date) {
  const peeked = peekHandoffSession(token);
  if (!peeked) throw errors.validation('frToken is not a checkout token.', 'frToken', 'invalid_fr_token');
  const session = peeked.flowId === flowId ? await scoped(db, scope).get(flowSessions, peeked.sessionId) : undefined;
  if (!session || session.flowId !== flowId) throw errors.notFound('flow session');
  const secret = await secretOf(db, scope, session.flowVersionId);
  const verified = secret ? await verifyHandoffToken(secret, token, at) : 'invalid';
  if (verified === 'expired') throw errors.validation('frToken has expired.', 'frToken', 'fr_token_expired');
  if (verified === 'invalid' || verified.sessionId !== session.id) throw errors.validation('frToken does not verify.', 'frToken', 'invalid_fr_token');
  return session;
}

/**
 * `POST /v1/flows/checkout-callbacks/{flowId}` (DESIGN decision 28): the clinic's store reports that the
 * patient it was handed paid. Signed Standard Webhooks-style with the checkout secret of the flow's active
 * version; behind the `flow_checkout` flag. Records the store's order id on the session and emits
 * `flow.checkout.completed` once (a repeat with the same order id answers 200 and changes nothing), and
 * puts the id on the session's order when a provider already approved it. Nothing is written on a refusal.
 */
export async function receiveCheckoutCallback(db: Db, flowId: string, req: SignedRequest) {
  const at = now();
  const flow = await flowOfCallback(db, flowId);
  const scope: Scope = { tenantId: flow.tenantId, livemode: flow.livemode };
  const activeSecret = await secretOf(db, scope, flow.activeVersionId);
  if (!activeSecret) throw errors.conflict('This flow’s published version has no checkout setting, so no callback can be verified.', 'checkout_not_configured');
  verifyStoreSignature(activeSecret, req, at);
  // After the signature: only the store learns whether the clinic has the feature.
  await requireFeature(db, scope.tenantId, 'flow_checkout');
  const body = parseBody(req.rawBody);
  const session = await sessionOfToken(db, scope, flowId, body.frToken, at);
  if (session.verdict !== 'eligible') throw errors.conflict('Only an eligible run is handed to the store; this session is not one.', 'session_not_eligible');

  const duplicate = () => errors.conflict('Another checkout of this clinic already reported this externalOrderId.', 'duplicate_external_order');
  return db
    .transaction(async (tx) => {
      const s = scoped(tx, scope);
      const [taken] = await tx
        .select({ id: flowSessions.id })
        .from(flowSessions)
        .where(s.where(flowSessions, and(eq(flowSessions.externalOrderId, body.externalOrderId), ne(flowSessions.id, session.id))))
        .limit(1);
      if (taken) throw duplicate();
      // Two sessions completing with one order id at once both pass the read above; the unique index lets one through.
      const completed = await s.update(flowSessions, session.id, { externalOrderId: body.externalOrderId, checkoutCompletedAt: at, updatedAt: at }, isNull(flowSessions.checkoutCompletedAt));
      if (!completed) {
        const current = await s.get(flowSessions, session.id);
        if (current?.externalOrderId === body.externalOrderId) return { ok: true as const };
        throw errors.conflict('This session’s checkout was already completed with another externalOrderId.', 'checkout_already_completed');
      }
      await emitEvent(tx, scope, 'flow.checkout.completed', { flowId, sessionId: session.id, externalOrderId: body.externalOrderId });
      await linkOrderToCheckout(tx, scope, completed);
      return { ok: true as const };
    })
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    });
}
