import type { Queryable } from '@/server/db/types';

// INTERFACE PLACEHOLDER (foundation commit): the certificates helper replaces this file's bodies.

export interface CertificateSubject {
  submissionId: string;
  tenantId: string;
  livemode: boolean;
  questionnaire: { key: string; version: number; contentHash: string };
  answers: Record<string, unknown>;
  /** The flow's clinical-plane hash when the run came through a flow. */
  clinicalPlaneHash?: string;
}

/** Signs the eligible verdict (DESIGN decision 20): a compact EdDSA JWS. */
export async function issueCertificate(_db: Queryable, _subject: CertificateSubject, _now: Date): Promise<string> {
  throw new Error('certificates not built yet');
}
