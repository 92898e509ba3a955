import { createHash } from 'node:crypto';

export type Arm = 'control' | 'variant';

/** Buckets per experiment: a split is set in basis points (splitPct × 100). */
export const BUCKETS = 10_000;

/**
 * DESIGN decision 27: the first 4 bytes of SHA-256(`experimentId:sessionId`), read as a big-endian uint32,
 * mod 10,000. A pure function of the two ids, so any process, before or after a restart, computes the same
 * bucket; the experiment id in the input makes buckets of different experiments independent.
 */
export function bucketOf(experimentId: string, sessionId: string): number {
  return createHash('sha256').update(`${experimentId}:${sessionId}`).digest().readUInt32BE(0) % BUCKETS;
}

/** The variant gets buckets below the split: `splitBasisPoints` of every 10,000. */
export const armOf = (experimentId: string, sessionId: string, splitBasisPoints: number): Arm =>
  bucketOf(experimentId, sessionId) < splitBasisPoints ? 'variant' : 'control';

/** splitPct (0–100, at most two decimals) as stored. */
export const toBasisPoints = (splitPct: number) => Math.round(splitPct * 100);
export const toSplitPct = (basisPoints: number) => basisPoints / 100;
