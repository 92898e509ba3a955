import { TRPCClientError } from '@trpc/client';
import { expect } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import type { ErrorData } from '@/server/api/trpc';

/** A call over /api/trpc that must fail: the API's message and the envelope fields tRPC carries in `data`. */
export async function trpcFailure(p: Promise<unknown>): Promise<{ message: string; data: ErrorData }> {
  const err = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TRPCClientError);
  const e = err as TRPCClientError<AppRouter>;
  return { message: e.message, data: e.data as unknown as ErrorData };
}
