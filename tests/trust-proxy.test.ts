import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/server/lib/config';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';

/*
 * Issue 49, item 8: TRUST_PROXY. Behind a balancer every request's peer is the balancer, so a per-address limit
 * counted one bucket for every patient. With TRUST_PROXY the client is read from X-Forwarded-For through the
 * trusted hops only; unset, the forwarded headers change nothing. The public embed path's limit (per key and
 * client address) shows whose bucket a request fell in: ten requests sent at once over a limit of one a second
 * (two with the burst) are all answered when they are ten clients, and some are refused when they are one.
 */

const apps: TestApp[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

async function appWith(trustProxy?: string) {
  const app = await startTestApp({ EMBED_RATE_LIMIT: '1', ...(trustProxy ? { TRUST_PROXY: trustProxy } : {}) });
  apps.push(app);
  const clinic = await createTenantWithKeys(app, 'Proxy Clinic');
  const embedKey = (await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [] } })).body.id as string;
  return { app, embedKey };
}

/** Ten requests at once to the public path, each with the X-Forwarded-For `forwardedFor(i)` gives; their statuses. */
async function tenAtOnce(app: TestApp, embedKey: string, forwardedFor: (i: number) => string) {
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) => app.request('GET', `/v1/public/embed/${embedKey}`, { headers: { 'x-forwarded-for': forwardedFor(i) } })),
  );
  return answers.map((r) => r.status);
}

describe('TRUST_PROXY unset (the default)', () => {
  it('ignores X-Forwarded-For: a client spoofing a new address per request stays in its own bucket', async () => {
    const { app, embedKey } = await appWith();
    const statuses = await tenAtOnce(app, embedKey, (i) => `198.51.100.${i + 1}`);
    expect(statuses).toContain(429);
  });

  it('ignores X-Forwarded-Proto: no HSTS for a client that claims https', async () => {
    const { app } = await appWith();
    const res = await app.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('TRUST_PROXY=1 (one balancer in front)', () => {
  it('counts each forwarded client apart', async () => {
    const { app, embedKey } = await appWith('1');
    expect(await tenAtOnce(app, embedKey, (i) => `198.51.100.${i + 1}`)).toEqual(Array(10).fill(200));
  });

  it('reads only the hop the balancer added: addresses a client put before it change nothing', async () => {
    const { app, embedKey } = await appWith('1');
    const statuses = await tenAtOnce(app, embedKey, (i) => `10.0.0.${i + 1}, 203.0.113.7`);
    expect(statuses).toContain(429);
  });

  it('takes X-Forwarded-Proto: https from the balancer as https (HSTS)', async () => {
    const { app } = await appWith('1');
    const https = await app.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    // The balancer's own word is the last value: a client's `https` before an `http` it appended is not taken.
    const appended = await app.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https, http' } });
    expect(appended.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('TRUST_PROXY as a list of ranges', () => {
  it('trusts the forwarded headers only from a peer inside the ranges', async () => {
    // The test's requests come from 127.0.0.1, which is not in 10.0.0.0/8: the headers are the client's own.
    const { app, embedKey } = await appWith('10.0.0.0/8');
    expect(await tenAtOnce(app, embedKey, (i) => `198.51.100.${i + 1}`)).toContain(429);
    const res = await app.request('GET', '/healthz', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('walks back through trusted hops to the first untrusted address', async () => {
    const { app, embedKey } = await appWith('loopback, 10.0.0.0/8');
    // Each client is seen as the address before the trusted 10.x hop.
    expect(await tenAtOnce(app, embedKey, (i) => `198.51.100.${i + 1}, 10.1.2.3`)).toEqual(Array(10).fill(200));
    // One client behind two trusted hops, whatever it claims further left.
    expect(await tenAtOnce(app, embedKey, (i) => `192.0.2.${i + 1}, 203.0.113.9, 10.1.2.3`)).toContain(429);
  });
});

describe('TRUST_PROXY validation', () => {
  it('refuses a value it cannot read at start, naming the variable', () => {
    for (const bad of ['yes', '10.0.0.0/99', 'not-an-ip', '1,,2', '-1']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
    for (const good of ['1', '2', '10.0.0.0/8', 'loopback', '10.0.0.0/8, fd00::/8', '192.0.2.1']) {
      expect(loadConfig({ TRUST_PROXY: good }).TRUST_PROXY).toBe(good);
    }
  });
});
