import { expect, it } from 'vitest';
import { toEnvelope } from '@/server/api/envelope';

/**
 * Issue 37: a request that meets a database restart or failover answers 503 service_unavailable with
 * Retry-After (retryable, as the soak's PostgreSQL restart showed), not a bare 500; other failures stay 500.
 */
const failedQuery = (cause: object) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

it.each([
  ['the server shutting down (57P01) under a query', failedQuery(withCode('terminating connection due to administrator command', '57P01'))],
  ['a connection exception (08006)', withCode('connection failure', '08006')],
  ['a refused connection under a query', failedQuery(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))],
  ['a connection the driver saw end', failedQuery(new Error('Connection terminated unexpectedly'))],
  ['a pool with no connection to give', new Error('timeout exceeded when trying to connect')],
])('%s: 503 database_unavailable with Retry-After', (_, thrown) => {
  const e = toEnvelope(thrown, 'req_1');
  expect(e.status).toBe(503);
  expect(e.body.error).toMatchObject({ type: 'service_unavailable', code: 'database_unavailable' });
  expect(e.headers['Retry-After']).toBe('1');
});

it.each([
  ['a constraint the database refused (23514)', failedQuery(withCode('new row violates check constraint', '23514'))],
  ['a refused connection to something else (a pharmacy)', Object.assign(new Error('fetch failed'), { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') })],
  ['any other failure', new Error('boom')],
])('%s: 500 internal_error', (_, thrown) => {
  expect(toEnvelope(thrown, 'req_1')).toMatchObject({ status: 500, body: { error: { type: 'api_error', code: 'internal_error' } } });
});
