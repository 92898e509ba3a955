import { classifyReason } from '@/server/lib/pharmacy-reason-codes';

/**
 * `order.rejected`'s reason (issue 54): the vocabulary's code, or `other` with the pharmacy's own code beside it
 * in `reasonRaw`, so an integration can switch on a closed list and still see what the pharmacy said. The order
 * row and its timeline keep the code exactly as the pharmacy sent it.
 */
export function rejectionEventReason(code: string): { reasonCode: string; reasonRaw?: string } {
  const { reasonCode, reasonRaw } = classifyReason(code);
  return reasonRaw === null ? { reasonCode } : { reasonCode, reasonRaw };
}
