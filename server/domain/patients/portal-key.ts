import { and, eq, isNull, sql } from 'drizzle-orm';
import { embedKeys, flows, flowVersions, tenants } from '@/db/schema';
import { prepared } from '@/server/db/prepared';
import type { Queryable } from '@/server/db/types';
import { EMBED_KEY_SHAPE } from '@/server/lib/embed-addresses';
import { THEME_TOKENS, themeVariable } from '@/server/domain/flows/shared/shapes';

/**
 * The embed key a portal page or sign-in call names (DESIGN decision 39): any active key of a clinic, whether or
 * not it serves a flow (a live key's portal works without one), with the clinic's name and the theme of the flow
 * it serves, when that flow is published.
 */
export interface PortalKey {
  id: string;
  tenantId: string;
  livemode: boolean;
  allowedOrigins: string[];
  clinicName: string;
  /** The flow's theme tokens as `--nl-flow-*` CSS variables; empty without a published flow. */
  cssVariables: Record<string, string>;
}

// Unscoped by nature: the key is what names the tenant. Rendered once.
const portalKeyStatement = prepared((q: Queryable) =>
  q
    .select({ key: embedKeys, clinicName: tenants.name, document: flowVersions.document })
    .from(embedKeys)
    .innerJoin(tenants, eq(tenants.id, embedKeys.tenantId))
    .leftJoin(flows, and(eq(flows.id, embedKeys.flowId), eq(flows.tenantId, embedKeys.tenantId), eq(flows.livemode, embedKeys.livemode), eq(flows.status, 'active')))
    .leftJoin(flowVersions, and(eq(flowVersions.id, flows.activeVersionId), eq(flowVersions.tenantId, embedKeys.tenantId)))
    .where(and(eq(embedKeys.id, sql.placeholder('id')), isNull(embedKeys.revokedAt)))
    .limit(1),
);

/** The active key, or null when the id is malformed, unknown or revoked. */
export async function findPortalKey(q: Queryable, id: string): Promise<PortalKey | null> {
  if (!EMBED_KEY_SHAPE.test(id)) return null;
  const [row] = await portalKeyStatement.execute(q, { id });
  if (!row) return null;
  const tokens = row.document?.theme.tokens ?? {};
  const cssVariables: Record<string, string> = {};
  for (const token of THEME_TOKENS) if (typeof tokens[token] === 'string') cssVariables[themeVariable(token)] = tokens[token];
  return { id: row.key.id, tenantId: row.key.tenantId, livemode: row.key.livemode, allowedOrigins: row.key.allowedOrigins, clinicName: row.clinicName, cssVariables };
}
