import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from '../helpers/harness';
import { trpcFailure } from '../helpers/trpc';

/**
 * Issue 21, item 5: a 400 names the field as a person would and says what it must be, on /v1 and on
 * /api/trpc alike, while type, code and param stay what clients branch on. Every rejection writes nothing.
 */
let app: TestApp;
let a: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Clinic A');
});
afterAll(async () => app?.close());

const PATIENT = { firstName: 'Vala', lastName: 'Plantedname', dateOfBirth: '1980-02-03', sex: 'female', email: 'vala@example.test', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '73301' } };
const KEY = { name: 'ci key' };
const PHARMACY = { name: 'Sim', adapter: 'simulated', states: ['TX'] };

type Case = [label: string, path: string, table: string, body: unknown, code: string, param: string, message: string];

const cases: Case[] = [
  ['an empty required string', '/v1/developer/keys', 'api_keys', { name: '' }, 'invalid_request', 'name', 'Name cannot be empty.'],
  ['a blank string, trimmed to empty', '/v1/developer/keys', 'api_keys', { name: '   ' }, 'invalid_request', 'name', 'Name cannot be empty.'],
  ['a string too long', '/v1/developer/keys', 'api_keys', { name: 'k'.repeat(121) }, 'invalid_request', 'name', 'Name must be at most 120 characters.'],
  ['a missing field', '/v1/developer/keys', 'api_keys', {}, 'parameter_missing', 'name', 'Name is required.'],
  ['a wrong type', '/v1/developer/keys', 'api_keys', { name: 7 }, 'invalid_request', 'name', 'Name must be a string.'],
  ['a value outside an enum', '/v1/developer/keys', 'api_keys', { ...KEY, mode: 'staging' }, 'invalid_request', 'mode', 'Mode must be one of: sandbox, live.'],
  ['a number not above its bound', '/v1/developer/keys', 'api_keys', { ...KEY, expiresInDays: 0 }, 'invalid_request', 'expiresInDays', 'Expires in days must be greater than 0.'],
  ['a number too big', '/v1/developer/keys', 'api_keys', { ...KEY, expiresInDays: 4000 }, 'invalid_request', 'expiresInDays', 'Expires in days must be at most 3650.'],
  ['a list too long', '/v1/developer/keys', 'api_keys', { ...KEY, scopes: Array.from({ length: 51 }, (_, i) => `s${i}`) }, 'invalid_request', 'scopes', 'Scopes must have at most 50 items.'],
  ['an unknown field', '/v1/developer/keys', 'api_keys', { ...KEY, colour: 'red' }, 'unknown_parameter', 'colour', "Received unknown parameter: 'colour'."],
  ['a bad e-mail', '/v1/patients', 'patients', { ...PATIENT, email: 'not-an-address' }, 'invalid_request', 'email', 'Email must be a valid e-mail address.'],
  ['a missing patient field (domain check)', '/v1/patients', 'patients', { ...PATIENT, firstName: undefined }, 'parameter_missing', 'firstName', 'First name is required.'],
  ['a string where a boolean belongs, without echoing it', '/v1/patients', 'patients', { ...PATIENT, synthetic: 'true' }, 'invalid_request', 'synthetic', 'Synthetic must be a boolean.'],
  ['a bad nested field', '/v1/patients', 'patients', { ...PATIENT, address: { ...PATIENT.address, state: 'ZZ' } }, 'invalid_request', 'address.state', 'Address state must be a two-letter US state code (e.g. CA).'],
  ['a nested regex with its own rule', '/v1/patients', 'patients', { ...PATIENT, address: { ...PATIENT.address, postalCode: '7330' } }, 'invalid_request', 'address.postalCode', 'Address postal code must be a ZIP code (12345 or 12345-6789).'],
  ['a nested literal', '/v1/patients', 'patients', { ...PATIENT, address: { ...PATIENT.address, country: 'CA' } }, 'invalid_request', 'address.country', 'Address country must be US.'],
  ['a refine with its own rule', '/v1/patients', 'patients', { ...PATIENT, dateOfBirth: '2999-01-01' }, 'invalid_request', 'dateOfBirth', 'Date of birth must be a real date between 1900-01-01 and today.'],
  ['an empty entry in a list', '/v1/patients', 'patients', { ...PATIENT, allergies: ['latex', ''] }, 'invalid_request', 'allergies.1', 'Allergy 2 cannot be empty.'],
  ['a NUL, named before the other problems', '/v1/patients', 'patients', { ...PATIENT, firstName: '', lastName: 'Bad\u0000Name' }, 'invalid_request', 'lastName', 'Last name must not contain the NUL character (\\u0000).'],
  ['a list too short', '/v1/pharmacies', 'pharmacy_connections', { ...PHARMACY, states: [] }, 'invalid_request', 'states', 'States must have at least 1 item.'],
  ['a number too small in a list item', '/v1/orders', 'orders', { items: [{ productId: 'prd_01h2xcejqtf2nbrexx3vqjhp41', quantity: 0, sig: 'daily' }] }, 'invalid_request', 'items.0.quantity', 'Item 1 quantity must be at least 1.'],
  ['a fraction where a whole number belongs', '/v1/orders', 'orders', { items: [{ productId: 'prd_01h2xcejqtf2nbrexx3vqjhp41', quantity: 1.5, sig: 'daily' }] }, 'invalid_request', 'items.0.quantity', 'Item 1 quantity must be a whole number.'],
  ['a wrong type in a list item', '/v1/orders', 'orders', { items: [{ productId: 'prd_01h2xcejqtf2nbrexx3vqjhp41', quantity: '2', sig: 'daily' }] }, 'invalid_request', 'items.0.quantity', 'Item 1 quantity must be a number.'],
  ['an unknown nested field', '/v1/orders', 'orders', { items: [{ productId: 'prd_01h2xcejqtf2nbrexx3vqjhp41', quantity: 1, sig: 'daily', dose: 2 }] }, 'unknown_parameter', 'items.0.dose', "Received unknown parameter: 'items.0.dose'."],
  ['a body that is no object', '/v1/developer/keys', 'api_keys', ['ci key'], 'invalid_body', '', 'The request body must be a JSON object.'],
  ['a URL that is no URL', '/v1/developer/webhooks', 'webhook_endpoints', { url: 'not a url' }, 'invalid_url', 'url', 'The URL is not a valid absolute URL.'],
  ['an empty URL', '/v1/developer/webhooks', 'webhook_endpoints', { url: '' }, 'invalid_request', 'url', 'URL cannot be empty.'],
  ['an unknown webhook field', '/v1/developer/webhooks', 'webhook_endpoints', { url: 'https://hooks.example.test/a', secret: 'x' }, 'unknown_parameter', 'secret', "Received unknown parameter: 'secret'."],
  ['a pharmacy setting out of range', '/v1/pharmacies', 'pharmacy_connections', { ...PHARMACY, settings: { acceptAfterSeconds: -1 } }, 'invalid_request', 'settings.acceptAfterSeconds', 'Settings accept after seconds must be at least 0.'],
  ['a pharmacy setting with its own rule', '/v1/pharmacies', 'pharmacy_connections', { ...PHARMACY, settings: { shipAfterSeconds: 10, deliverAfterSeconds: 5 } }, 'invalid_request', 'settings.deliverAfterSeconds', 'Settings deliver after seconds must be at least shipAfterSeconds, and shipAfterSeconds at least acceptAfterSeconds.'],
];

describe('validation messages on /v1', () => {
  it.each(cases)('answers %s with a sentence for people', async (_label, path, table, body, code, param, message) => {
    const before = await countRows(app, table);
    const res = await app.request('POST', path, { key: a.sandboxKey, body });
    expectEnvelope(res, 400, 'validation_error', code);
    expect(res.body.error.param).toBe(param || undefined);
    expect(res.body.error.message).toBe(message);
    expect(res.text).not.toContain('Plantedname');
    expect(await countRows(app, table)).toBe(before);
  });

  it('words a bad query parameter the same way', async () => {
    const res = await app.request('GET', '/v1/patients?limit=0', { key: a.sandboxKey });
    expectEnvelope(res, 400, 'validation_error', 'invalid_request');
    expect(res.body.error).toMatchObject({ param: 'limit', message: 'Limit must be at least 1.' });
  });

  it('keeps no zod wording in any of these messages', async () => {
    for (const [, path, , body] of cases) {
      const res = await app.request('POST', path, { key: a.sandboxKey, body });
      expect(res.body.error.message).not.toMatch(/Invalid value for|Too (small|big)|expected (string|number|one of)|Invalid (input|option)/);
    }
  });
});

describe('validation messages on /api/trpc', () => {
  const trpc = () => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${a.sandboxKey}` } })] });

  const failure = trpcFailure;

  it.each([
    ['an empty name', () => trpc().developer.createApiKey.mutate({ name: '' }), 'api_keys', 'invalid_request', 'name', 'Name cannot be empty.'],
    ['an enum', () => trpc().developer.createApiKey.mutate({ name: 'k', mode: 'staging' as 'live' }), 'api_keys', 'invalid_request', 'mode', 'Mode must be one of: sandbox, live.'],
    ['a missing field', () => trpc().developer.createApiKey.mutate({} as { name: string }), 'api_keys', 'parameter_missing', 'name', 'Name is required.'],
    ['a bad e-mail', () => trpc().patients.createPatient.mutate({ ...PATIENT, sex: 'female', email: 'nope' }), 'patients', 'invalid_request', 'email', 'Email must be a valid e-mail address.'],
    ['a nested field', () => trpc().patients.createPatient.mutate({ ...PATIENT, sex: 'female', address: { ...PATIENT.address, city: '' } }), 'patients', 'invalid_request', 'address.city', 'Address city cannot be empty.'],
    ['a short list', () => trpc().pharmacies.createPharmacy.mutate({ name: 'Sim', adapter: 'simulated', states: [] }), 'pharmacy_connections', 'invalid_request', 'states', 'States must have at least 1 item.'],
  ] as const)('answers %s with the same sentence as /v1', async (_label, call, table, code, param, message) => {
    const before = await countRows(app, table);
    const { message: got, data } = await failure(call());
    expect(data).toMatchObject({ type: 'validation_error', code, param, httpStatus: 400 });
    expect(got).toBe(message);
    expect(got).not.toContain('Plantedname');
    expect(await countRows(app, table)).toBe(before);
  });
});
