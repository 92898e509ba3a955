/**
 * The path and query of a request's target, exactly as `new URL(target, 'http://localhost')` reads them, without
 * the URL parse when the target is already plain: a path of characters that parsing leaves as they are, no
 * dot segment, not protocol-relative, no fragment. Nearly every request is plain; parsing a URL per request
 * was 1.4% of an authenticated read's CPU (issue 35). Anything else (a `\`, a space, `%2e`, an absolute
 * target) takes the full parse, so the two never disagree (tests/no-database/request-target.test.ts compares them).
 * Null for a target the parser refuses (`//`: a protocol-relative URL without a host), which the caller
 * answers as a bad request: thrown from the request listener, it left the request unanswered (and, without
 * Next.js's handler of unhandled rejections, ended the process).
 */
export interface RequestTarget {
  pathname: string;
  /** The query's parameters, made on first use. */
  readonly searchParams: URLSearchParams;
}

// Characters the WHATWG parser keeps unchanged in a special URL's path and query (none it percent-encodes or
// rewrites); one `?` at most (URLSearchParams would drop a query's own leading `?`).
const PLAIN = /^\/(?!\/)[A-Za-z0-9\-._~!$&()*+,;=:@%/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@%/]*)?$/;
// A segment `.` or `..`, written plainly or percent-encoded: the parser would resolve it.
const DOT_SEGMENT = /\/(?:\.|%2e)(?:\.|%2e)?(?:[/?]|$)/i;

const BASE = 'http://localhost';

export function requestTarget(raw: string | undefined): RequestTarget | null {
  const target = raw ?? '/';
  if (!PLAIN.test(target) || DOT_SEGMENT.test(target)) return URL.canParse(target, BASE) ? new URL(target, BASE) : null;
  const q = target.indexOf('?');
  return q === -1 ? new PlainTarget(target, '') : new PlainTarget(target.slice(0, q), target.slice(q + 1));
}

// A class, not an object literal with a getter: V8 defines a literal's accessor anew on every request.
class PlainTarget implements RequestTarget {
  #params: URLSearchParams | undefined;
  constructor(
    readonly pathname: string,
    private readonly query: string,
  ) {}
  get searchParams(): URLSearchParams {
    return (this.#params ??= new URLSearchParams(this.query));
  }
}
