/**
 * Which web origins may use an embed key (DESIGN decision 17). Pure functions: the API validates origins
 * with `checkAllowedOrigin` when a key is written, and `embedProcedure` matches requests with `originAllowed`.
 */

export const MAX_ALLOWED_ORIGINS = 50;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const EXACT = /^(https?):\/\/([^/:*?#@\s]+)(?::(\d{1,5}))?$/;
const WILDCARD = /^https:\/\/\*\.([^/:*?#@\s]+)(?::(\d{1,5}))?$/;

/*
 * Suffixes under which anyone can register a name: `https://*.github.io` would admit every stranger's page.
 * Not the whole Public Suffix List, only the common multi-label ones; any single label (`*.com`) is refused too.
 */
const SHARED_SUFFIXES = new Set([
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'me.uk', 'ltd.uk', 'plc.uk', 'com.au', 'net.au', 'org.au', 'co.nz', 'org.nz', 'co.jp', 'ne.jp',
  'or.jp', 'com.br', 'com.mx', 'co.in', 'co.za', 'com.cn', 'com.tw', 'com.sg', 'com.hk', 'co.kr', 'com.ar', 'com.tr', 'co.il',
  'github.io', 'gitlab.io', 'herokuapp.com', 'vercel.app', 'netlify.app', 'pages.dev', 'workers.dev', 'web.app', 'firebaseapp.com',
  'azurewebsites.net', 'cloudfront.net', 'appspot.com', 'blogspot.com', 'wordpress.com', 'wixsite.com', 'squarespace.com',
  'myshopify.com', 'webflow.io', 'onrender.com', 'fly.dev', 'glitch.me', 'repl.co', 'ngrok.io', 'ngrok-free.app', 'amazonaws.com',
]);

function validHost(host: string): string | null {
  if (host !== host.toLowerCase()) return 'the host must be lowercase';
  const labels = host.split('.');
  if (host.length > 253 || !labels.every((l) => LABEL.test(l))) return 'the host is not a valid DNS name';
  return null;
}

function validPort(port: string | undefined): string | null {
  if (port === undefined) return null;
  const n = Number(port);
  return n >= 1 && n <= 65535 && String(n) === port ? null : 'the port must be 1 to 65535';
}

/** Why `origin` cannot be an allowed origin, or null when it can. */
export function checkAllowedOrigin(origin: string): string | null {
  const shape = 'Use scheme://host[:port] with no path or trailing slash (e.g. https://clinic.example.com), or https://*.example.com for its subdomains.';
  if (origin.includes('*')) {
    const w = WILDCARD.exec(origin);
    if (!w) return `A wildcard is allowed only as https://*.<domain>: bare *, http wildcards and wildcards inside a name are refused. ${shape}`;
    const problem = validHost(w[1]) ?? validPort(w[2]);
    if (problem) return `Invalid origin: ${problem}. ${shape}`;
    if (w[1].split('.').length < 2 || SHARED_SUFFIXES.has(w[1])) return `A wildcard over a public suffix (*.${w[1]}) would admit anyone's site; name your own domain.`;
    return null;
  }
  const m = EXACT.exec(origin);
  if (!m) return `Invalid origin. ${shape}`;
  const [, scheme, host, port] = m;
  const problem = validHost(host) ?? validPort(port);
  if (problem) return `Invalid origin: ${problem}. ${shape}`;
  if (scheme === 'http' && host !== 'localhost') return 'Origins must use https; http is allowed only for http://localhost[:port].';
  if (host !== 'localhost' && !host.includes('.')) return `Invalid origin: '${host}' is not a public host name. ${shape}`;
  return null;
}

const parsedOrigins = new Map<string, string | null>();
const MAX_PARSED_ORIGINS = 1000;

/**
 * `scheme://host[:port]` of a URL, default ports dropped; null for anything that is not http(s). Remembered:
 * a public runtime request parses the same few (its Origin, the service's own, the key's allowed ones) several
 * times, and a URL parse is the costliest part of the origin check (issue 35). Bounded, emptied when full.
 */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  let origin = parsedOrigins.get(url);
  if (origin === undefined) {
    origin = parseOrigin(url);
    if (parsedOrigins.size >= MAX_PARSED_ORIGINS) parsedOrigins.clear();
    parsedOrigins.set(url, origin);
  }
  return origin;
}

function parseOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** Whether `allowed` (an exact origin or an https://*.domain wildcard) admits the request origin `origin`. */
export function originMatches(origin: string, allowed: string): boolean {
  const request = originOf(origin);
  if (!request) return false;
  if (!allowed.startsWith('https://*.')) return request === originOf(allowed);
  const u = new URL(request);
  // Compare as URLs so that an explicit default port (https://*.x.com:443) equals none.
  const base = new URL(allowed.replace('*.', ''));
  return u.protocol === 'https:' && u.port === base.port && u.hostname.endsWith(`.${base.hostname}`);
}

/**
 * Whether a request whose browser sent `origin` (else `referer`) may use a key allowing `allowed`; the
 * service's own origin (its hosted pages) always may.
 */
export function originAllowed(headers: { origin?: string; referer?: string }, allowed: readonly string[], ownOrigin: string): boolean {
  const request = headers.origin && headers.origin !== 'null' ? originOf(headers.origin) : originOf(headers.referer);
  if (!request) return false;
  if (request === originOf(ownOrigin)) return true;
  return allowed.some((a) => originMatches(request, a));
}
