import { Agent } from 'undici';
import { pinnedLookup, type UrlPolicy } from '@/server/lib/ssrf';

// One pooled agent per policy: keep-alive across requests, and every new connection goes through the
// checking lookup, so the socket reaches only an address that passed the URL rules. Webhook deliveries
// and pharmacy calls share it.
const agents = new Map<boolean, Agent>();
export function agentFor(policy: UrlPolicy): Agent {
  let agent = agents.get(policy.allowLocalhost);
  if (!agent) {
    agent = new Agent({ connect: { lookup: pinnedLookup(policy) } as never, connections: 64, keepAliveTimeout: 10_000 });
    agents.set(policy.allowLocalhost, agent);
  }
  return agent;
}
