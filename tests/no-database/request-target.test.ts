import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestTarget } from '@/server/http/request-target';

/*
 * The app routes on the path and query read from the request target by hand when the target is plain
 * (server/http/request-target.ts). Whatever the target, what it reads must be what the URL parser reads:
 * a difference would route a request, or check a page's key, on another path than the one meant.
 */
const TARGETS = [
  '/',
  '/v1/developer/keys',
  '/v1/developer/keys?limit=10&starting_after=key_1',
  '/v1/public/flows/emb_AbC123/sessions/fs_x/steps',
  '/f/emb_AbC123?variant=b&utm_source=mail',
  '/embed/frame?k=emb_1&t=flow&k=emb_2',
  '/v1/openapi.json',
  '/v1/x?a=1+2&b=%20c&c=%zz&d=&e',
  '/v1/x?a=%E2%9C%93&b=%ff',
  "/v1/x?name=o'brien",
  '/v1/x?a=b?c=d',
  '/v1/../admin',
  '/v1/./developer/keys',
  '/v1/%2e%2e/admin',
  '/v1/%2E/keys',
  '/v1/.%2e/keys',
  '/v1/..',
  '/v1/.',
  '/.well-known/x',
  '/v1/a..b/.c/c.',
  '//evil.example/path',
  '/v1\\..\\admin',
  '/v1/a b',
  '/v1/a#frag',
  '/v1/x?y=1#frag',
  '/v1/\u00e9',
  '/v1/x?q=\u00c3\u00a9',
  '/v1/a"b<c>d`e{f}',
  '/v1/%',
  'http://other.example/v1/keys?x=1',
  '*',
  '',
  '//',
  '///',
];

/** What the app reads of `target` is what the URL parser reads, and null exactly when the parser refuses it. */
function expectSameAsParser(target: string) {
  const read = requestTarget(target);
  if (!URL.canParse(target, 'http://localhost')) return expect(read).toBeNull();
  const url = new URL(target, 'http://localhost');
  expect(read?.pathname).toBe(url.pathname);
  expect([...(read?.searchParams ?? [])]).toEqual([...url.searchParams]);
}

describe('request targets', () => {
  it.each(TARGETS)('reads %j as the URL parser does', (target) => {
    expectSameAsParser(target);
  });

  it('reads any target built of the characters that matter as the URL parser does', () => {
    const piece = fc.constantFrom('/', '.', '..', '%2e', '%2E', '%', '?', '#', '&', '=', '+', '\\', ' ', "'", 'a', 'B', '1', '%20', '%zz', '\u00e9', '~', ':', '@');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, rooted) => {
        expectSameAsParser(`${rooted ? '/' : ''}${pieces.join('')}`);
      }),
      { numRuns: 3000 },
    );
  });
});
