import { answered, send, type Signing } from '../client';
import type { Check } from '../types';

/** A request the pharmacy must refuse: it cannot be ours. 401 is the contract; 403 is read the same way. */
function refuses(name: string, title: string, signing: Signing, what: string): Check {
  return {
    name,
    title,
    expected: `GET /catalog ${what} is refused with 401`,
    async run(state) {
      const x = await send(state, `GET /catalog (${what})`, 'GET', 'catalog', { signing });
      return { passed: x.status === 401 || x.status === 403, seen: x.status === 200 ? 'HTTP 200: accepted' : answered(x) };
    },
  };
}

export const rejectsUnsigned = refuses('rejects-unsigned', 'Unsigned request refused', 'none', 'without signature headers');
export const rejectsBadSignature = refuses('rejects-bad-signature', 'Wrong signature refused', 'wrong_secret', 'signed with another secret');
export const rejectsStaleTimestamp = refuses('rejects-stale-timestamp', 'Replayed request refused', 'stale', 'signed 10 minutes ago (a replay)');
