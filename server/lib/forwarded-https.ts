import { AsyncLocalStorage } from 'node:async_hooks';
import { processState } from './process-container';

/**
 * Whether the request being served reached the deployment over https, by a trusted proxy's X-Forwarded-Proto
 * (TRUST_PROXY, server/lib/trust-proxy.ts). The custom server runs Next.js's handling of each request inside
 * this scope, so the console's cookie rules (web/console/jwt.ts) can make the session cookie `Secure` behind a
 * proxy that terminates TLS, though the service itself speaks plain http. One store per process: the custom
 * server and Next.js's bundle each load this module.
 */
const scope = () => processState('forwarded-https', () => new AsyncLocalStorage<boolean>());

export function runForwardedHttps<T>(https: boolean, fn: () => T): T {
  return https ? scope().run(true, fn) : fn();
}

export const forwardedHttps = (): boolean => scope().getStore() === true;
