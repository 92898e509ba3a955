import { request } from 'undici';
import { agentFor } from '@/server/integrations/net/agent';
import { parseWebhookUrl, type UrlPolicy } from '@/server/lib/ssrf';
import { PROTOCOL_TIMINGS } from '../protocol/timings';
import type { ProtocolFetch } from './types';

const MAX_ANSWER_BYTES = PROTOCOL_TIMINGS.maxAnswerBytes;

/** The CLI's fetch: whatever address the pharmacy's engineer points it at (their own machine, usually). */
export const directFetch: ProtocolFetch = async (url, init) => {
  const res = await fetch(url, { ...init, redirect: 'manual' });
  return { status: res.status, text: await res.text() };
};

/**
 * The server's fetch: the URL rules of DESIGN decision 7 (checked before, and again at connect through the
 * pinned agent, so DNS cannot swap in an inside address), as the `http` adapter's own requests obey them.
 */
export function pinnedFetch(policy: UrlPolicy): ProtocolFetch {
  return async (url, init) => {
    parseWebhookUrl(url, policy);
    const res = await request(url, { method: init.method, headers: init.headers, body: init.body, signal: init.signal, dispatcher: agentFor(policy) });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        res.body.destroy();
        throw new Error('the answer is larger than 4 MiB');
      }
      chunks.push(chunk as Buffer);
    }
    return { status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  };
}
