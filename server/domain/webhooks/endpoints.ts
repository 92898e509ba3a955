import { and, eq, sql } from 'drizzle-orm';
import { jobs, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { isEventType } from '@/server/domain/events/catalog';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { UrlRejected, validateWebhookUrl, type UrlPolicy } from '@/server/lib/ssrf';
import { DELIVERY_JOB, lastDeliveries, type DeliveryRow, type EndpointRow } from './deliveries';
import { mintWebhookSecret, secretHint } from './secrets';

export interface EndpointChanges {
  url?: string;
  events?: string[];
  status?: 'enabled' | 'disabled';
  description?: string;
}

/** An empty description is no description: the column holds null rather than ''. */
const noteOf = (description: string | undefined) => (description ? description : null);

export function toEndpointDto(row: EndpointRow, last?: DeliveryRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    status: row.status,
    secretHint: secretHint(row.secret),
    createdAt: row.createdAt.toISOString(),
    lastDelivery: last
      ? { eventType: last.eventType, status: last.status, at: (last.lastAttemptAt ?? last.createdAt).toISOString(), responseCode: last.responseCode }
      : null,
  };
}

/** URL rules of DESIGN decision 7, as the spec's 400 naming `url`; the message never echoes the URL. */
async function checkUrl(url: string, policy: UrlPolicy): Promise<string> {
  try {
    await validateWebhookUrl(url, policy);
    return url;
  } catch (err) {
    if (err instanceof UrlRejected) throw errors.validation(err.message, 'url', err.code);
    throw err;
  }
}

function checkEventTypes(types: string[]): string[] {
  if (types.some((t) => !isEventType(t))) {
    throw errors.validation('Unknown event type. GET /v1/developer/webhooks/events lists the subscribable types.', 'events', 'unknown_event_type');
  }
  return [...new Set(types)];
}

/** The secret is returned here and never again. */
export async function createEndpoint(db: Db, scope: Scope, input: { url: string; events: string[]; description?: string }, policy: UrlPolicy) {
  const types = checkEventTypes(input.events);
  const url = await checkUrl(input.url, policy);
  const at = now();
  const row = await scoped(db, scope).insert(webhookEndpoints, {
    id: newId('webhookEndpoint'),
    url,
    description: noteOf(input.description),
    events: types,
    status: 'enabled',
    secret: mintWebhookSecret(),
    createdAt: at,
    updatedAt: at,
  });
  return { id: row.id, url: row.url, description: row.description, events: row.events, status: row.status, secret: row.secret };
}

/** Oldest first, as the spec lists endpoints. */
export async function listEndpoints(db: Db, scope: Scope) {
  const rows = await scoped(db, scope).list(webhookEndpoints, { order: 'oldest' });
  const last = await lastDeliveries(db, scope, rows.map((r) => r.id));
  return rows.map((r) => toEndpointDto(r, last.get(r.id)));
}

/** Changes only the fields sent; a disabled endpoint keeps its secret. */
export async function updateEndpoint(db: Db, scope: Scope, id: string, changes: EndpointChanges, policy: UrlPolicy) {
  const s = scoped(db, scope);
  const existing = await s.require(webhookEndpoints, id, 'webhook endpoint');
  const set: Partial<EndpointRow> = {};
  if (changes.events !== undefined) set.events = checkEventTypes(changes.events);
  if (changes.url !== undefined) set.url = await checkUrl(changes.url, policy);
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.description !== undefined) set.description = noteOf(changes.description);
  const row = Object.keys(set).length ? await s.update(webhookEndpoints, id, { ...set, updatedAt: now() }) : existing;
  const last = await lastDeliveries(db, scope, [id]);
  return toEndpointDto(row ?? existing, last.get(id));
}

/** Removes the endpoint, its history and its queued deliveries at once, so its secret signs nothing more. */
export async function deleteEndpoint(db: Db, scope: Scope, id: string) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    await s.require(webhookEndpoints, id, 'webhook endpoint');
    await tx.delete(jobs).where(s.where(jobs, and(eq(jobs.kind, DELIVERY_JOB), sql`${jobs.payload}->>'endpointId' = ${id}`)));
    await tx.delete(webhookEndpoints).where(s.where(webhookEndpoints, eq(webhookEndpoints.id, id)));
    return { deleted: true, id };
  });
}
