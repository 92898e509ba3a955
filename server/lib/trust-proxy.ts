import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/**
 * TRUST_PROXY (issue 49, item 8): who the client is when the service sits behind load balancers. Unset, the
 * client is the socket's peer and forwarded headers are ignored, so no client can choose its own rate-limit
 * bucket or claim https. A hop count `N` trusts the N nearest hops (the peer, then the addresses it appended to
 * X-Forwarded-For, right to left); a list of addresses or CIDR ranges (proxy-addr's notation, its names
 * `loopback`, `linklocal`, `uniquelocal` included) trusts the hops whose address is in it. The client is the
 * first address, from the right, that is not trusted.
 */
export interface ClientOrigin {
  address: string;
  /** The trusted peer said the client spoke https (X-Forwarded-Proto). */
  https: boolean;
}

type Trust = (addr: string, hop: number) => boolean;

const HOP_COUNT = /^\d{1,2}$/;

function compileTrust(value: string): Trust {
  if (HOP_COUNT.test(value)) {
    const hops = Number(value);
    return (_addr, hop) => hop < hops;
  }
  return proxyAddr.compile(value.split(',').map((s) => s.trim()));
}

/** Whether TRUST_PROXY's value can be read (config validation). */
export function isTrustProxy(value: string): boolean {
  if (HOP_COUNT.test(value)) return true;
  try {
    compileTrust(value);
    return value.split(',').every((s) => s.trim() !== '');
  } catch {
    return false;
  }
}

// Longer than any address: a forwarded value is the client's text, kept short in limit keys and logs.
const MAX_ADDRESS = 64;

export function createClientOrigin(trustProxy: string | undefined): (req: IncomingMessage) => ClientOrigin {
  if (!trustProxy) return (req) => ({ address: req.socket.remoteAddress ?? 'unknown', https: false });
  const trust = compileTrust(trustProxy);
  return (req) => {
    const peer = req.socket.remoteAddress ?? 'unknown';
    if (!trust(peer, 0)) return { address: peer, https: false };
    // The nearest proxy's word on the scheme is the last value: an earlier one may be the client's own.
    const proto = String(req.headers['x-forwarded-proto'] ?? '').split(',').pop()?.trim().toLowerCase();
    return { address: proxyAddr(req, trust).slice(0, MAX_ADDRESS), https: proto === 'https' };
  };
}
