import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIp, consoleForwardProof, FORWARD_PROOF, FORWARDED_CLIENT_IP } from '@/server/api/client-ip';

const req = (headers: Record<string, string>, peer = '127.0.0.1') => ({ headers, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

describe('clientIp: the console forwards the browser address for sign-in limits', () => {
  const SECRET = 'a-test-secret-of-sufficient-length-0123456789';

  it('uses the peer address when nothing is forwarded', () => {
    expect(clientIp(req({}, '203.0.113.9'), SECRET)).toBe('203.0.113.9');
  });

  it('trusts the forwarded address only with the proof derived from the shared secret', () => {
    expect(clientIp(req({ [FORWARDED_CLIENT_IP]: '198.51.100.7', [FORWARD_PROOF]: consoleForwardProof(SECRET) }), SECRET)).toBe('198.51.100.7');
  });

  it('ignores a forwarded address without, or with a wrong, proof: a client cannot pick its limit bucket', () => {
    expect(clientIp(req({ [FORWARDED_CLIENT_IP]: '198.51.100.7' }, '203.0.113.9'), SECRET)).toBe('203.0.113.9');
    expect(clientIp(req({ [FORWARDED_CLIENT_IP]: '198.51.100.7', [FORWARD_PROOF]: consoleForwardProof('another-secret') }, '203.0.113.9'), SECRET)).toBe('203.0.113.9');
    expect(clientIp(req({ [FORWARDED_CLIENT_IP]: '198.51.100.7', [FORWARD_PROOF]: 'short' }, '203.0.113.9'), SECRET)).toBe('203.0.113.9');
  });

  it('trusts nothing when no secret is configured', () => {
    const proof = consoleForwardProof('');
    expect(clientIp(req({ [FORWARDED_CLIENT_IP]: '198.51.100.7', [FORWARD_PROOF]: proof }, '203.0.113.9'), '')).toBe('203.0.113.9');
  });
});
