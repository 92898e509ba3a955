import { describe, expect, it } from 'vitest';
import { checkAllowedOrigin, originAllowed, originMatches } from '@/server/domain/embed/origins';

describe('checkAllowedOrigin (DESIGN decision 17)', () => {
  it.each([
    'https://clinic.example.com',
    'https://example.com',
    'https://clinic.example.com:8443',
    'http://localhost',
    'http://localhost:3000',
    'https://localhost:3000',
    'https://*.example.com',
    'https://*.clinic.example.com:8443',
    'https://*.example.co.uk',
  ])('accepts %s', (origin) => expect(checkAllowedOrigin(origin)).toBeNull());

  it.each([
    ['bare star', '*'],
    ['http wildcard', 'http://*'],
    ['https star', 'https://*'],
    ['http wildcard subdomains', 'http://*.example.com'],
    ['public suffix wildcard', 'https://*.com'],
    ['shared suffix wildcard', 'https://*.github.io'],
    ['multi-label public suffix', 'https://*.co.uk'],
    ['star inside a label', 'https://clinic*.example.com'],
    ['star deeper', 'https://a.*.example.com'],
    ['trailing slash', 'https://clinic.example.com/'],
    ['path', 'https://clinic.example.com/intake'],
    ['query', 'https://clinic.example.com?x=1'],
    ['uppercase host', 'https://Clinic.Example.com'],
    ['http outside localhost', 'http://clinic.example.com'],
    ['http loopback address', 'http://127.0.0.1:3000'],
    ['no scheme', 'clinic.example.com'],
    ['other scheme', 'ftp://clinic.example.com'],
    ['port zero', 'https://clinic.example.com:0'],
    ['port too large', 'https://clinic.example.com:70000'],
    ['userinfo', 'https://user@clinic.example.com'],
    ['single-label host', 'https://intranet'],
    ['empty', ''],
    ['label with underscore', 'https://bad_host.example.com'],
  ])('refuses %s (%s)', (_name, origin) => expect(checkAllowedOrigin(origin)).toEqual(expect.any(String)));
});

describe('originMatches', () => {
  it.each([
    ['https://clinic.example.com', 'https://clinic.example.com', true],
    ['https://clinic.example.com:443', 'https://clinic.example.com', true],
    ['https://clinic.example.com', 'https://clinic.example.com:8443', false],
    ['http://clinic.example.com', 'https://clinic.example.com', false],
    ['https://evil.example.com', 'https://clinic.example.com', false],
    ['https://clinic.example.com.evil.test', 'https://clinic.example.com', false],
    ['http://localhost:3000', 'http://localhost:3000', true],
    ['http://localhost:3001', 'http://localhost:3000', false],
    ['https://sub.example.com', 'https://*.example.com', true],
    ['https://a.b.example.com', 'https://*.example.com', true],
    ['https://example.com', 'https://*.example.com', false],
    ['https://notexample.com', 'https://*.example.com', false],
    ['https://example.com.evil.test', 'https://*.example.com', false],
    ['http://sub.example.com', 'https://*.example.com', false],
    ['https://sub.example.com:8443', 'https://*.example.com', false],
    ['https://sub.example.com:8443', 'https://*.example.com:8443', true],
    ['null', 'https://clinic.example.com', false],
    ['not a url', 'https://clinic.example.com', false],
  ])('%s against %s → %s', (origin, allowed, expected) => expect(originMatches(origin, allowed)).toBe(expected));
});

describe('originAllowed', () => {
  const allowed = ['https://clinic.example.com'];
  const own = 'https://rail.example.net';
  it.each([
    ['a matching Origin', { origin: 'https://clinic.example.com' }, true],
    ['Origin wins over Referer', { origin: 'https://evil.test', referer: 'https://clinic.example.com/intake' }, false],
    ['Referer when Origin is missing', { referer: 'https://clinic.example.com/intake?step=2' }, true],
    ['Referer when Origin is "null"', { origin: 'null', referer: 'https://clinic.example.com/' }, true],
    ['a foreign Referer', { referer: 'https://evil.test/clinic.example.com' }, false],
    ["the service's own origin", { origin: 'https://rail.example.net' }, true],
    ["the service's own pages as Referer", { referer: 'https://rail.example.net/i/abc' }, true],
    ['neither header', {}, false],
  ])('%s', (_name, headers, expected) => expect(originAllowed(headers, allowed, own)).toBe(expected));
});
