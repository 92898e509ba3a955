import { desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { catalogs, embedKeys, flows, flowVersions, pharmacyConnections, products, protocols, questionnaires, users } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { loadPolicy } from '@/server/domain/pharmacies/routing-policy';

/** What a clinic sets up, in this order, before patients can reach a live hosted page (issue 50, item 2). */
export const GO_LIVE_STEP_IDS = ['product', 'pharmacy', 'routing', 'protocol', 'questionnaire', 'flow', 'embedKey'] as const;
export type GoLiveStepId = (typeof GO_LIVE_STEP_IDS)[number];

/**
 * Where a step stands: `done`, or why not. `missing`: nothing of the kind yet; `inactive`: only inactive ones;
 * `catalog_pending` / `catalog_missing` / `disabled`: a pharmacy without an approved catalog, or switched off;
 * `not_saved`: the routing defaults were never reviewed and saved; `waiting_for_provider`: a questionnaire or
 * flow version waits for a provider's approval; `unpublished`: a flow draft never published; `no_origins`:
 * the key serving the published flow allows no site; `blocked`: an earlier step must be done first.
 */
export const GO_LIVE_STATUSES = ['done', 'missing', 'inactive', 'catalog_pending', 'catalog_missing', 'disabled', 'not_saved', 'waiting_for_provider', 'unpublished', 'no_origins', 'blocked'] as const;
export type GoLiveStatus = (typeof GO_LIVE_STATUSES)[number];

export interface GoLiveStep {
  id: GoLiveStepId;
  done: boolean;
  status: GoLiveStatus;
  /** The console page where the step is done (or, once done, where it can be reviewed). */
  href: string;
  /** The one thing the step's words name: the pharmacy, protocol, questionnaire, flow or embed key. */
  subject: { id: string; name: string } | null;
  /** How many things of the kind are ready (active products, pharmacies with an approved catalog, …). */
  count: number;
  /** One fact for the words: a pharmacy's adapter, the routing strategy, `key vN` of a questionnaire, a flow's version number. */
  detail: string | null;
}

type StepFacts = Omit<GoLiveStep, 'id' | 'done'>;
const step = (id: GoLiveStepId, facts: Partial<StepFacts> & Pick<StepFacts, 'status' | 'href'>): GoLiveStep => ({
  id,
  done: facts.status === 'done',
  subject: null,
  count: 0,
  detail: null,
  ...facts,
});

async function productStep(q: Queryable, scope: Scope): Promise<GoLiveStep> {
  const rows = await q.select({ active: products.active }).from(products).where(scoped(q, scope).where(products));
  const active = rows.filter((r) => r.active).length;
  return step('product', { status: active ? 'done' : rows.length ? 'inactive' : 'missing', href: '/products', count: active });
}

async function pharmacyStep(q: Queryable, scope: Scope): Promise<GoLiveStep> {
  const s = scoped(q, scope);
  const connections = await q
    .select({ id: pharmacyConnections.id, name: pharmacyConnections.name, adapter: pharmacyConnections.adapter, status: pharmacyConnections.status })
    .from(pharmacyConnections)
    .where(s.where(pharmacyConnections))
    .orderBy(desc(pharmacyConnections.id));
  if (!connections.length) return step('pharmacy', { status: 'missing', href: '/pharmacies' });
  const catalogRows = await q
    .select({ connectionId: catalogs.connectionId, status: catalogs.status })
    .from(catalogs)
    .where(s.where(catalogs, inArray(catalogs.connectionId, connections.map((c) => c.id)), inArray(catalogs.status, ['approved', 'pending'])));
  const has = (id: string, status: string) => catalogRows.some((c) => c.connectionId === id && c.status === status);
  const ready = connections.filter((c) => c.status === 'enabled' && has(c.id, 'approved'));
  const named = (c: (typeof connections)[number]) => ({ id: c.id, name: c.name });
  if (ready.length) return step('pharmacy', { status: 'done', href: '/pharmacies', count: ready.length, subject: named(ready[0]), detail: ready[0].adapter });
  // The nearest to ready: an enabled one with a catalog waiting, then any enabled one, then a disabled one.
  const waiting = connections.find((c) => c.status === 'enabled' && has(c.id, 'pending'));
  if (waiting) return step('pharmacy', { status: 'catalog_pending', href: '/pharmacies', subject: named(waiting), detail: waiting.adapter });
  const enabled = connections.find((c) => c.status === 'enabled');
  if (enabled) return step('pharmacy', { status: 'catalog_missing', href: '/pharmacies', subject: named(enabled), detail: enabled.adapter });
  return step('pharmacy', { status: 'disabled', href: '/pharmacies', subject: named(connections[0]), detail: connections[0].adapter });
}

async function routingStep(q: Queryable, scope: Scope): Promise<GoLiveStep> {
  const policy = await loadPolicy(q, scope);
  return step('routing', { status: policy.updatedAt ? 'done' : 'not_saved', href: '/routing', detail: policy.strategy });
}

async function protocolStep(q: Queryable, scope: Scope): Promise<GoLiveStep> {
  const rows = await q
    .select({ id: protocols.id, name: protocols.name, active: protocols.active })
    .from(protocols)
    .where(scoped(q, scope).where(protocols))
    .orderBy(desc(protocols.id));
  const active = rows.filter((r) => r.active);
  const href = '/products#protocols';
  if (active.length) return step('protocol', { status: 'done', href, count: active.length, subject: { id: active[0].id, name: active[0].name } });
  return step('protocol', { status: rows.length ? 'inactive' : 'missing', href, subject: rows[0] ? { id: rows[0].id, name: rows[0].name } : null });
}

async function questionnaireStep(q: Queryable, scope: Scope): Promise<GoLiveStep> {
  const rows = await q
    .select({ id: questionnaires.id, key: questionnaires.key, version: questionnaires.version, status: questionnaires.status, title: sql<string>`${questionnaires.document}->>'title'` })
    .from(questionnaires)
    .where(scoped(q, scope).where(questionnaires, inArray(questionnaires.status, ['approved', 'pending'])))
    .orderBy(desc(questionnaires.createdAt), desc(questionnaires.id));
  const approved = rows.filter((r) => r.status === 'approved');
  const subject = (r: (typeof rows)[number]) => ({ id: r.id, name: r.title || r.key });
  if (approved.length) {
    const newest = approved[0];
    return step('questionnaire', { status: 'done', href: `/intake/questionnaires/${encodeURIComponent(newest.key)}`, count: new Set(approved.map((r) => r.key)).size, subject: subject(newest), detail: `${newest.key} v${newest.version}` });
  }
  const pending = rows.find((r) => r.status === 'pending');
  if (pending) return step('questionnaire', { status: 'waiting_for_provider', href: '/intake/questionnaires/pending', subject: subject(pending), detail: `${pending.key} v${pending.version}` });
  return step('questionnaire', { status: 'missing', href: '/intake/questionnaires/new' });
}

interface FlowFacts {
  step: GoLiveStep;
  /** The mode's published flows, newest first: an embed key must serve one of them. */
  published: { id: string; name: string }[];
}

async function flowStep(q: Queryable, scope: Scope): Promise<FlowFacts> {
  const s = scoped(q, scope);
  const rows = await q
    .select({ id: flows.id, name: flows.name, activeVersionId: flows.activeVersionId, pendingVersionId: flows.pendingVersionId })
    .from(flows)
    .where(s.where(flows, eq(flows.status, 'active')))
    .orderBy(desc(flows.id));
  const published = rows.filter((r) => r.activeVersionId);
  const named = (r: (typeof rows)[number]) => ({ id: r.id, name: r.name });
  const at = (r: (typeof rows)[number]) => `/flows/${r.id}`;
  if (published.length) {
    const newest = published[0];
    const [version] = await q.select({ number: flowVersions.number }).from(flowVersions).where(s.where(flowVersions, eq(flowVersions.id, newest.activeVersionId!)));
    const done = step('flow', { status: 'done', href: at(newest), count: published.length, subject: named(newest), detail: version ? String(version.number) : null });
    return { step: done, published: published.map(named) };
  }
  const pending = rows.find((r) => r.pendingVersionId);
  if (pending) return { step: step('flow', { status: 'waiting_for_provider', href: at(pending), subject: named(pending) }), published: [] };
  if (rows.length) return { step: step('flow', { status: 'unpublished', href: at(rows[0]), subject: named(rows[0]) }), published: [] };
  return { step: step('flow', { status: 'missing', href: '/flows' }), published: [] };
}

async function embedKeyStep(q: Queryable, scope: Scope, published: FlowFacts['published']): Promise<GoLiveStep> {
  if (!published.length) return step('embedKey', { status: 'blocked', href: '/embed-keys' });
  const keys = await q
    .select({ id: embedKeys.id, name: embedKeys.name, flowId: embedKeys.flowId, allowedOrigins: embedKeys.allowedOrigins })
    .from(embedKeys)
    .where(scoped(q, scope).where(embedKeys, isNull(embedKeys.revokedAt), inArray(embedKeys.flowId, published.map((f) => f.id))))
    .orderBy(desc(embedKeys.createdAt));
  const serving = keys.filter((k) => k.allowedOrigins.length > 0);
  const named = (k: (typeof keys)[number]) => ({ id: k.id, name: k.name ?? k.id });
  const forFlow = (flowId: string | null) => `/embed-keys?flow=${flowId ?? published[0].id}`;
  if (serving.length) return step('embedKey', { status: 'done', href: forFlow(serving[0].flowId), count: serving.length, subject: named(serving[0]), detail: serving[0].flowId });
  if (keys.length) return step('embedKey', { status: 'no_origins', href: forFlow(keys[0].flowId), subject: named(keys[0]), detail: keys[0].flowId });
  return step('embedKey', { status: 'missing', href: forFlow(published[0].id), detail: published[0].id });
}

/** The clinic's providers who can approve today: a verified NPI, two-factor on, not deactivated (DESIGN decision 10). */
async function approverCount(q: Queryable, scope: Scope): Promise<number> {
  const [row] = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(scoped(q, scope).where(users, eq(users.role, 'provider'), isNotNull(users.npiVerifiedAt), isNotNull(users.mfaEnabledAt), isNull(users.deactivatedAt)));
  return Number(row?.n ?? 0);
}

/**
 * The console's "Go live" checklist for the caller's mode: each step done or not, why not, and the page
 * where it is done; the first step not done is `next`. Once every step is done, the hosted page's address
 * (`publicUrl/f/<key>`) of the key that serves the published flow. Reads only; ids, names and counts, no PHI.
 */
export async function goLiveChecklist(q: Queryable, scope: Scope, publicUrl: string) {
  const [product, pharmacy, routing, protocol, questionnaire, flow, approvers] = await Promise.all([
    productStep(q, scope),
    pharmacyStep(q, scope),
    routingStep(q, scope),
    protocolStep(q, scope),
    questionnaireStep(q, scope),
    flowStep(q, scope),
    approverCount(q, scope),
  ]);
  const embedKey = await embedKeyStep(q, scope, flow.published);
  const steps = [product, pharmacy, routing, protocol, questionnaire, flow.step, embedKey];
  const next = steps.find((s) => !s.done)?.id ?? null;
  const servingKey = embedKey.done ? embedKey.subject!.id : null;
  return {
    object: 'go_live_checklist' as const,
    mode: scope.livemode ? ('live' as const) : ('sandbox' as const),
    complete: next === null,
    next,
    doneCount: steps.filter((s) => s.done).length,
    approvers,
    hostedPageUrl: next === null && servingKey ? `${publicUrl}/f/${servingKey}` : null,
    steps,
  };
}
