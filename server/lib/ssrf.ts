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
  /** DESIGN decision 7: plain http and loopback only for the literal host `localhost`, and only when on. */
  allowLocalhost: boolean;
}

// Names that always mean "inside": cloud metadata services and the special-use suffixes.
const FORBIDDEN_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);
const FORBIDDEN_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];
const LOOKUP_TIMEOUT_MS = 5_000;

const forbidden = () => new UrlRejected('url_forbidden_host', 'The URL’s host is a private, loopback, link-local, reserved or metadata address.');

/** Only globally routable unicast is allowed; an IPv4-mapped IPv6 address is judged as the IPv4 it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'unicast';
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** Scheme and host-name rules that need no DNS; returns the parsed URL. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRejected('invalid_url', 'The URL is not a valid absolute URL.');
  }
  const host = bare(url.hostname).toLowerCase();
  const isLocalhost = host === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLocalhost && policy.allowLocalhost)) {
    throw new UrlRejected('url_not_https', 'The URL must use https (http is allowed only for localhost in development).');
  }
  if (isLocalhost) {
    if (!policy.allowLocalhost) throw forbidden();
    return url;
  }
  if (!host || FORBIDDEN_NAMES.has(host) || FORBIDDEN_SUFFIXES.some((s) => host.endsWith(s) || host === s.slice(1))) throw forbidden();
  if (ipaddr.isValid(host) && !isPublicAddress(host)) throw forbidden();
  return url;
}

/** Resolves a host name and accepts it only if every address it resolves to is allowed. */
export async function resolveAllowed(hostname: string, policy: UrlPolicy): Promise<LookupAddress[]> {
  const host = bare(hostname).toLowerCase();
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw forbidden();
    return [{ address: host, family: host.includes(':') ? 6 : 4 }];
  }
  const addresses = await withTimeout(dns.promises.lookup(host, { all: true, verbatim: true }), LOOKUP_TIMEOUT_MS);
  if (addresses.length === 0) throw new Error(`DNS returned no address`);
  const loopbackOk = host === 'localhost' && policy.allowLocalhost;
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
