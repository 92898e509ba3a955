import { defaultShouldDehydrateQuery, QueryClient } from '@tanstack/react-query';

/**
 * One query client per browser tab, and one per server render. Server components prefetch into it; the
 * browser picks the data up without a second request (queries still pending when the page streams are
 * dehydrated too, so they finish on the client).
 */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 15_000, retry: (count, error) => count < 2 && !isClientFailure(error) },
      dehydrate: { shouldDehydrateQuery: (q) => defaultShouldDehydrateQuery(q) || q.state.status === 'pending' },
    },
  });
}

/** A 4xx is the API's considered answer: retrying it only delays the message the person needs to read. */
function isClientFailure(error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus;
  return typeof status === 'number' && status < 500;
}
