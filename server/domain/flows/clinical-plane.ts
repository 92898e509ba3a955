import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { canonicalHash } from '@/server/lib/canonical';
import { clinicalSteps } from './flow-schema';

export interface PinnedQuestionnaire {
  key: string;
  version: number;
  contentHash: string;
}

/**
 * DESIGN decision 23: SHA-256 of the canonical JSON of the questionnaire's key, version and content hash and
 * the clinical steps (medical, consent, contact) sorted by id. Copy, theme, quiz and step order are outside
 * it, so changing them never needs a provider; changing anything a provider vouched for does.
 */
export function clinicalPlaneHash(doc: FlowDocumentShape, questionnaire: PinnedQuestionnaire): string {
  const steps = [...clinicalSteps(doc)].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return canonicalHash({ questionnaire: { key: questionnaire.key, version: questionnaire.version, contentHash: questionnaire.contentHash }, steps });
}
