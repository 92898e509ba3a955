import dns from 'node:dns';
import type { LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

/** A URL or address refused by the webhook URL rules; the message never repeats the URL. */
export class UrlRejected extends Error {
  constructor(
    readonly code: 'invalid_url' | 'url_not_https' | 'url_forbidden_host',
    message: string,
  ) {
    super(message);
    this.name = 'UrlRejected';
  }
}

export interface UrlPolicy {
  /** DESIGN decision 7: plain http and loopback only for the host `localhost`, and only when on (WEBHOOKS_ALLOW_LOCALHOST). */
  allowLocalhost: boolean;
}

// Names that always mean "inside": cloud metadata services and the special-use suffixes.
const FORBIDDEN_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);
const FORBIDDEN_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];
const LOOKUP_TIMEOUT_MS = 5_000;

const LOCALHOST_OFF =
  'localhost URLs are turned off on this server; its operator can allow them with WEBHOOKS_ALLOW_LOCALHOST=true (on by default with the embedded database).';

const forbidden = () => new UrlRejected('url_forbidden_host', 'The URL’s host is a private, loopback, link-local, reserved or metadata address.');

/**
 * The IPv4 address an IPv6 address stands for, where one is embedded: IPv4-mapped and IPv4-compatible
 * (`::/96`, deprecated but still accepted by URL parsers), SIIT-translated, NAT64's well-known prefix and
 * 6to4. `null` for an ordinary IPv6 address; `'opaque'` for forms whose IPv4 cannot be judged (Teredo's is
 * obfuscated, a local-use NAT64 prefix's position is the network's own choice).
 */
function embeddedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | 'opaque' | null {
  const p = ip.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (ip.isIPv4MappedAddress()) return ip.toIPv4Address();
  if (zeros(0, 6) || (zeros(0, 4) && p[4] === 0xffff && p[5] === 0)) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return v4(p[6], p[7]);
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return 'opaque';
  if (p[0] === 0x2002) return v4(p[1], p[2]);
  if (p[0] === 0x2001 && p[1] === 0) return 'opaque';
  return null;
}

/** Only globally routable unicast is allowed; an address with an IPv4 inside is judged as that IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv4') return ip.range() === 'unicast';
  const inner = embeddedIPv4(ip as ipaddr.IPv6);
  if (inner === 'opaque') return false;
  return (inner ?? ip).range() === 'unicast';
}

// Brackets of an IPv6 literal, and the trailing dots of a fully qualified name: `localhost.` is `localhost`.
const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '').toLowerCase();

/** The host of an absolute URL exactly as it was typed, before the parser lower-cases it. */
const hostAsWritten = (raw: string) => /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(raw.trim())?.[1] ?? '';

/** Scheme and host-name rules that need no DNS; returns the parsed URL. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRejected('invalid_url', 'The URL is not a valid absolute URL.');
  }
  const host = bare(url.hostname);
  const isLocalhost = host === 'localhost';
  const web = url.protocol === 'https:' || url.protocol === 'http:';
  // Whoever meets this refusal is usually the operator trying the service on their own machine: name the switch.
  if (isLocalhost && web && !policy.allowLocalhost) {
    throw new UrlRejected(url.protocol === 'https:' ? 'url_forbidden_host' : 'url_not_https', LOCALHOST_OFF);
  }
  // Decision 7 allows the literal host `localhost` only: `localhost.`, `LOCALHOST` and the like are refused
  // even with the switch on, as they are with it off (the parser would quietly fold the case away).
  if (isLocalhost && hostAsWritten(raw) !== 'localhost') {
    throw new UrlRejected('url_forbidden_host', 'Only the literal host name `localhost` is allowed for local webhooks (no trailing dot, lower case).');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalhost)) {
    throw new UrlRejected('url_not_https', 'The URL must use https (plain http is allowed only for localhost, when WEBHOOKS_ALLOW_LOCALHOST is on).');
  }
  if (isLocalhost) return url;
  if (!host || FORBIDDEN_NAMES.has(host) || FORBIDDEN_SUFFIXES.some((s) => host.endsWith(s) || host === s.slice(1))) throw forbidden();
  if (ipaddr.isValid(host) && !isPublicAddress(host)) throw forbidden();
  return url;
}

/** Resolves a host name and accepts it only if every address it resolves to is allowed. */
export async function resolveAllowed(hostname: string, policy: UrlPolicy): Promise<LookupAddress[]> {
  const host = bare(hostname);
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw forbidden();
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  const addresses = await withTimeout(dns.promises.lookup(host, { all: true, verbatim: true }), LOOKUP_TIMEOUT_MS);
  if (addresses.length === 0) throw new Error(`DNS returned no address`);
  // The literal name only (decision 7): `localhost.` resolves to loopback too, and is refused like any inside address.
  const loopbackOk = hostname === 'localhost' && policy.allowLocalhost;
  for (const a of addresses) {
    const loopback = ipaddr.isValid(a.address) && ipaddr.process(a.address).range() === 'loopback';
    if (!(loopbackOk ? loopback : isPublicAddress(a.address))) throw forbidden();
  }
  return addresses;
}

/**
 * Full check for create and update: syntax, then DNS. A name that does not resolve yet is accepted (it may
 * be set up later); every delivery resolves and checks again, so nothing unsafe is ever reached.
 */
export async function validateWebhookUrl(raw: string, policy: UrlPolicy): Promise<URL> {
  const url = parseWebhookUrl(raw, policy);
  try {
    await resolveAllowed(url.hostname, policy);
  } catch (err) {
    if (err instanceof UrlRejected) throw err;
  }
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for undici's connector: the socket connects to exactly the addresses this function checked,
 * so a DNS answer that changes between check and connect (rebinding) cannot reach an inside address.
 */
export function pinnedLookup(policy: UrlPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (err: Error) => callback(Object.assign(err, { code: (err as NodeJS.ErrnoException).code ?? 'EFORBIDDENHOST' }), options.all ? [] : ''),
    );
  };
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('DNS lookup timed out')), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
