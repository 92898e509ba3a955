import type { DunningStage } from '@/db/schema/billing';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { originAllowed } from '@/server/domain/embed/origins';
import { AppError, errors } from '@/server/lib/errors';
import { clientIp } from '../client-ip';
import type { Context } from '../context';
import { enforceRateDecision } from './rate-limit';

/** What a public procedure knows of the embed key its path names (DESIGN decision 17). */
export interface EmbedContext {
  keyId: string;
  tenantId: string;
  livemode: boolean;
  flowId: string | null;
  /** The version the key's flow served when the key was resolved (null for a key serving no flow). */
  activeVersionId: string | null;
  /** Questionnaires the key may serve; empty = every approved one. */
  questionnaireKeys: readonly string[];
  /** The tenant's dunning stage in this mode when the key was resolved (new flow sessions are refused from restricted on). */
  billingStage: DunningStage;
  /** The experiment running on the key's flow when the key was resolved (null: none). */
  runningExperiment: { id: string; splitBasisPoints: number } | null;
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const notFound = () => errors.notFound('embed key');

/**
 * Public paths (called in the embed-key builder's one middleware level, server/api/procedures.ts): resolves
 * the `embedKey` path parameter (malformed, unknown, revoked or serving an unpublished flow → 404), limits
 * requests per key and client IP, and outside sandbox admits only the key's allowed origins and the
 * service's own (403 `origin_not_allowed`). The key stands in for a principal (no scopes), so
 * Idempotency-Key replays are kept per tenant, mode and key.
 */
export async function resolveEmbedKey(ctx: Context, getRawInput: () => Promise<unknown>): Promise<{ embed: EmbedContext; principal: TenantPrincipal }> {
  const raw = (await getRawInput()) as { embedKey?: unknown } | undefined;
  const keyId = typeof raw?.embedKey === 'string' ? raw.embedKey : '';
  const { database, auth, embedRateLimiter, servingKeys } = ctx.services;

  // Counted before the lookup, so a flood costs a counter, not a query; only a well-formed key gets a bucket.
  // One statement, from memory once read: the key with its flow's state (archived or unpublished → the same 404).
  const found = await servingKeys.find(database.db, keyId, async (id) => {
    const decision = await embedRateLimiter.consume(`embed:${id}:${clientIp(ctx.req, auth.consoleSecret)}`, true);
    enforceRateDecision(ctx.state, decision);
  });
  if (!found) throw notFound();

  if (found.livemode) {
    const ok = originAllowed({ origin: header(ctx.req.headers.origin), referer: header(ctx.req.headers.referer) }, found.allowedOrigins, auth.publicUrl);
    if (!ok) {
      throw new AppError('permission_error', 'origin_not_allowed', 403, "This page's origin is not among the embed key's allowed origins; add it to the key in the console.");
    }
  }

  const embed: EmbedContext = {
    keyId: found.id,
    tenantId: found.tenantId,
    livemode: found.livemode,
    flowId: found.flowId,
    activeVersionId: found.activeVersionId,
    questionnaireKeys: found.questionnaireKeys,
    billingStage: found.billingStage,
    runningExperiment: found.runningExperiment,
  };
  const principal: TenantPrincipal = { kind: 'key', tenantId: found.tenantId, livemode: found.livemode, scopes: [], keyId: found.id, rateLimitKey: `embed:${found.id}` };
  return { embed, principal };
}
