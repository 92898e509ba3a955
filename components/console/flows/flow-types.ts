import type { FlowStepShape, ThemeToken } from '@/server/lib/flow-shapes';

/** The flow shapes of the wire contract (authoring, H1), as the console reads them. */
export interface FlowVersionSummary {
  id: string;
  number: number;
  status: string;
  clinicalPlaneHash: string;
  questionnaire: { key: string; version: number };
  approvedBy: string | null;
  approvedAt: string | null;
  publishedAt: string | null;
}

export interface DraftSettings {
  questionnaireKey: string;
  protocolId?: string;
  checkout?: { storeUrl: string; secretLast4?: string };
  conversionPostbacks?: string[];
}

export interface DraftDocument {
  steps: FlowStepShape[];
  theme: { tokens: Partial<Record<ThemeToken, string>> };
  settings: DraftSettings;
}

export interface PendingClinicalChanges {
  added: string[];
  removed: string[];
  changed: string[];
  questionnaireChanged: boolean;
}

export interface Flow {
  id: string;
  name: string;
  status: 'active' | 'archived';
  livemode: boolean;
  origin: 'staff' | 'ai';
  draft: DraftDocument;
  draftClinicalPlaneHash: string | null;
  activeVersion: FlowVersionSummary | null;
  pendingVersion: FlowVersionSummary | null;
  pendingClinicalChanges: PendingClinicalChanges | null;
  embedKeys: string[];
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}

export interface FlowVersion extends FlowVersionSummary {
  flowId: string;
  document: DraftDocument;
  publishedBy: string | null;
  approvedHere: boolean;
  createdAt: string;
}

export interface PublishResult {
  status: 'published' | 'pending_approval';
  flow: Flow;
  version: FlowVersionSummary;
}
