import type { flows, flowVersions } from '@/db/schema';
import { canonicalJson } from '@/server/lib/canonical';
import { isClinicalStep, type FlowDocumentShape, type FlowSettingsShape } from '@/server/domain/flows/shared/shapes';

export type FlowRow = typeof flows.$inferSelect;
export type FlowVersionRow = typeof flowVersions.$inferSelect;

/** A document as the API shows it: the checkout secret replaced by its last four characters. */
export type MaskedFlowDocument = Omit<FlowDocumentShape, 'settings'> & {
  settings: Omit<FlowSettingsShape, 'checkout'> & { checkout?: { storeUrl: string; secretLast4: string } };
};

export function maskDocument(doc: FlowDocumentShape): MaskedFlowDocument {
  const { checkout, ...settings } = doc.settings;
  if (!checkout) return { ...doc, settings };
  return { ...doc, settings: { ...settings, checkout: { storeUrl: checkout.storeUrl, secretLast4: checkout.secret.slice(-4) } } };
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toVersionSummary(v: FlowVersionRow) {
  return {
    id: v.id,
    number: v.number,
    status: v.status,
    clinicalPlaneHash: v.clinicalPlaneHash,
    questionnaire: { key: v.questionnaireKey, version: v.questionnaireVersion },
    approvedBy: v.approvedBy,
    approvedAt: iso(v.approvedAt),
    publishedAt: iso(v.publishedAt),
  };
}

export function toFlowVersionDto(v: FlowVersionRow) {
  return {
    ...toVersionSummary(v),
    object: 'flow_version' as const,
    flowId: v.flowId,
    livemode: v.livemode,
    document: maskDocument(v.document),
    publishedBy: v.publishedBy,
    approvedHere: v.approvedHere,
    createdAt: v.createdAt.toISOString(),
  };
}

/**
 * What a provider is asked to approve, against what patients get now: clinical steps by id (added, removed,
 * changed in any field) and whether the pinned questionnaire version moved. With no active version every
 * clinical step is new.
 */
export function clinicalChanges(pending: FlowVersionRow, active: FlowVersionRow | undefined) {
  const before = new Map((active?.document.steps ?? []).filter(isClinicalStep).map((s) => [s.id, canonicalJson(s)]));
  const after = new Map(pending.document.steps.filter(isClinicalStep).map((s) => [s.id, canonicalJson(s)]));
  return {
    added: [...after.keys()].filter((id) => !before.has(id)),
    removed: [...before.keys()].filter((id) => !after.has(id)),
    changed: [...after.keys()].filter((id) => before.has(id) && before.get(id) !== after.get(id)),
    questionnaireChanged: !active || active.questionnaireId !== pending.questionnaireId,
  };
}

export interface FlowViewParts {
  active?: FlowVersionRow;
  pending?: FlowVersionRow;
  embedKeys: string[];
  draftClinicalPlaneHash: string | null;
}

export function toFlowDto(row: FlowRow, parts: FlowViewParts) {
  return {
    id: row.id,
    object: 'flow' as const,
    name: row.name,
    status: row.status,
    livemode: row.livemode,
    origin: row.origin,
    draft: maskDocument(row.draft),
    draftClinicalPlaneHash: parts.draftClinicalPlaneHash,
    activeVersion: parts.active ? toVersionSummary(parts.active) : null,
    pendingVersion: parts.pending ? toVersionSummary(parts.pending) : null,
    pendingClinicalChanges: parts.pending ? clinicalChanges(parts.pending, parts.active) : null,
    embedKeys: parts.embedKeys,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archivedAt: iso(row.archivedAt),
  };
}

