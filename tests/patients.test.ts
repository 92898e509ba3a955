import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { US_STATES } from '@/server/lib/us-states';
import { setClock } from '@/server/lib/clock';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startWithTwoClinics, type TestApp, VALID_NPI } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => setClock(null));

type Opts = { headers?: Record<string, string> };
const create = (key: string, body: unknown, o: Opts = {}) => app.request('POST', '/v1/patients', { key, body, ...o });
const get = (key: string, id: string, o: Opts = {}) => app.request('GET', `/v1/patients/${id}`, { key, ...o });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/patients/${id}`, { key, body });
const list = (key: string, query = '') => app.request('GET', `/v1/patients${query}`, { key });
const accessLog = (key: string, id: string, query = '', o: Opts = {}) => app.request('GET', `/v1/patients/${id}/access-log${query}`, { key, ...o });

const JANE = {
  firstName: '  Jane ',
  lastName: 'Doe',
  dateOfBirth: '1985-04-12',
  sex: 'female',
  email: 'jane.doe@example.org',
  phone: '(415) 555-0134',
  address: { line1: '1 Market St', city: 'San Francisco', state: 'ca', postalCode: '94105' },
  allergies: ['penicillin'],
};

/** Rows of the two patient tables, to prove a rejected request wrote nothing. */
const counts = async () => ({ patients: await countRows(app, 'patients'), log: await countRows(app, 'patient_access_log') });

describe('POST /patients', () => {
  it('creates a live patient: trimmed names, E.164 phone, uppercase state, default country and lists', async () => {
    const res = await create(a.liveKey, JANE);
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^pat_[0-9a-z]{26}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      object: 'patient',
      livemode: true,
      synthetic: false,
      firstName: 'Jane',
      lastName: 'Doe',
      dateOfBirth: '1985-04-12',
      sex: 'female',
      email: 'jane.doe@example.org',
      phone: '+14155550134',
      address: { line1: '1 Market St', line2: null, city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US' },
      state: 'CA',
      allergies: ['penicillin'],
      medications: [],
      createdAt: res.body.createdAt,
      updatedAt: res.body.createdAt,
    });
    expect(new Date(res.body.createdAt).toISOString()).toBe(res.body.createdAt);
  });

  it('creates only the required fields; email, phone and address are null', async () => {
    const res = await create(a.liveKey, { firstName: 'Min', lastName: 'Imal', dateOfBirth: '2000-02-29', sex: 'unknown' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: null, phone: null, address: null, allergies: [], medications: [] });
  });

  it.each([
    ['+15551234567', '+15551234567'],
    ['555-123-4567', '+15551234567'],
    ['1 (555) 123 4567', '+15551234567'],
    ['+44 20 7946 0958', '+442079460958'],
  ])('normalises the phone %s to E.164', async (phone, e164) => {
    const res = await create(a.liveKey, { ...JANE, phone });
    expect(res.status).toBe(201);
    expect(res.body.phone).toBe(e164);
  });

  it('accepts ZIP+4 and DC', async () => {
    const res = await create(a.liveKey, { ...JANE, address: { line1: '1600 Pennsylvania Ave NW', line2: 'Suite 1', city: 'Washington', state: 'dc', postalCode: '20500-0003', country: 'US' } });
    expect(res.status).toBe(201);
    expect(res.body.address).toMatchObject({ state: 'DC', postalCode: '20500-0003', line2: 'Suite 1' });
  });

  it('marks every sandbox patient synthetic', async () => {
    const res = await create(a.sandboxKey, JANE);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ livemode: false, synthetic: true, firstName: 'Jane' });
    const explicit = await create(a.sandboxKey, { ...JANE, synthetic: true });
    expect(explicit.status).toBe(201);
    expect(explicit.body).toMatchObject({ synthetic: true, firstName: 'Jane' });
  });

  it('generates a realistic fictitious adult from {synthetic: true} in sandbox', async () => {
    const made = await Promise.all([1, 2, 3].map(() => create(a.sandboxKey, { synthetic: true })));
    for (const res of made) {
      expect(res.status).toBe(201);
      const p = res.body;
      expect(p).toMatchObject({ object: 'patient', livemode: false, synthetic: true });
      expect(p.firstName.length).toBeGreaterThan(0);
      expect(p.lastName.length).toBeGreaterThan(0);
      expect(['female', 'male']).toContain(p.sex);
      const age = (Date.now() - Date.parse(p.dateOfBirth)) / (365.25 * 86400_000);
      expect(age).toBeGreaterThanOrEqual(18);
      expect(age).toBeLessThan(86);
      expect(p.email).toMatch(/@example\.com$/);
      expect(p.phone).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
      expect(US_STATES).toContain(p.address.state);
      expect(p.address.postalCode).toMatch(/^\d{5}$/);
      expect(p.address.country).toBe('US');
      expect(Array.isArray(p.allergies) && Array.isArray(p.medications)).toBe(true);
      expect((await get(a.sandboxKey, p.id)).body).toEqual(p);
    }
    expect(new Set(made.map((r) => r.body.email)).size).toBe(3);
  });

  it('refuses synthetic with a live key (400 naming synthetic) and false in sandbox, writing nothing', async () => {
    const before = await counts();
    const live = await create(a.liveKey, { synthetic: true });
    expectEnvelope(live, 400, 'validation_error', 'synthetic_in_live');
    expect(live.body.error.param).toBe('synthetic');
    const liveFull = await create(a.liveKey, { ...JANE, synthetic: true });
    expectEnvelope(liveFull, 400, 'validation_error');
    expect(liveFull.body.error.param).toBe('synthetic');
    const sandboxFalse = await create(a.sandboxKey, { ...JANE, synthetic: false });
    expectEnvelope(sandboxFalse, 400, 'validation_error');
    expect(sandboxFalse.body.error.param).toBe('synthetic');
    expect(await counts()).toEqual(before);
  });

  it('needs every required field unless generating, naming the first missing one', async () => {
    const before = await counts();
    for (const field of ['firstName', 'lastName', 'dateOfBirth', 'sex']) {
      const { [field]: _omitted, ...rest } = JANE as Record<string, unknown>;
      const res = await create(a.liveKey, rest);
      expectEnvelope(res, 400, 'validation_error', 'parameter_missing');
      expect(res.body.error.param).toBe(field);
    }
    // Sandbox: synthetic with some fields is an ordinary create, so the rest are still required.
    const partial = await create(a.sandboxKey, { synthetic: true, firstName: 'Ann' });
    expectEnvelope(partial, 400, 'validation_error', 'parameter_missing');
    expect(partial.body.error.param).toBe('lastName');
    expectEnvelope(await create(a.liveKey, {}), 400, 'validation_error', 'parameter_missing');
    expect(await counts()).toEqual(before);
  });

  const tomorrow = new Date(Date.now() + 86400_000).toISOString().slice(0, 10);
  it.each([
    ['firstName', { firstName: '   ' }],
    ['firstName', { firstName: 'Bartholomew'.repeat(10) }],
    ['firstName', { firstName: 42 }],
    ['lastName', { lastName: '' }],
    ['dateOfBirth', { dateOfBirth: '12/04/1985' }],
    ['dateOfBirth', { dateOfBirth: '1985-02-30' }],
    ['dateOfBirth', { dateOfBirth: '1985-13-01' }],
    ['dateOfBirth', { dateOfBirth: '1899-12-31' }],
    ['dateOfBirth', { dateOfBirth: tomorrow }],
    ['sex', { sex: 'F' }],
    ['email', { email: 'jane.doe.at.example.org' }],
    ['phone', { phone: '555-1234' }],
    ['phone', { phone: 'call me maybe' }],
    ['phone', { phone: '+0123456789' }],
    ['address.state', { address: { ...JANE.address, state: 'ZZ' } }],
    ['address.state', { address: { ...JANE.address, state: 'California' } }],
    ['address.postalCode', { address: { ...JANE.address, postalCode: '9410' } }],
    ['address.country', { address: { ...JANE.address, country: 'CA' } }],
    ['address.line1', { address: { city: 'San Francisco', state: 'CA', postalCode: '94105' } }],
    ['address.unit', { address: { ...JANE.address, unit: '4B' } }],
    ['allergies', { allergies: 'penicillin' }],
    ['medications.0', { medications: [''] }],
    ['nickname', { nickname: 'JD' }],
    ['synthetic', { synthetic: 'true' }],
    ['synthetic', { synthetic: 1 }],
  ])('rejects a bad %s with 400, without echoing it, and writes nothing', async (param, override) => {
    const before = await counts();
    const res = await create(a.liveKey, { ...JANE, ...override });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    for (const v of Object.values(override)) if (typeof v === 'string' && v.trim().length > 2) expect(res.text).not.toContain(v);
    expect(await counts()).toEqual(before);
  });

  it('never echoes a bad e-mail address in the error body', async () => {
    const res = await create(a.liveKey, { ...JANE, email: 'jane.quillfeather@@clinic' });
    expectEnvelope(res, 400, 'validation_error', 'invalid_request');
    expect(res.body.error.param).toBe('email');
    expect(res.text).not.toContain('quillfeather');
  });

  it('replays a retried create with the same Idempotency-Key: one patient; the replay is logged as a read', async () => {
    const idempotencyKey = crypto.randomUUID();
    const send = () => app.request('POST', '/v1/patients', { key: a.liveKey, body: JANE, idempotencyKey });
    const before = await counts();
    const first = await send();
    const retry = await send();
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await counts()).toEqual({ patients: before.patients + 1, log: before.log + 2 });
    const log = await app.request('GET', `/v1/patients/${first.body.id}/access-log`, { key: a.liveKey });
    expect(log.body.map((e: { action: string; requestId: string }) => [e.action, e.requestId])).toEqual([
      ['read', retry.headers.get('x-request-id')],
      ['create', first.headers.get('x-request-id')],
    ]);
  });

  it('needs patients.write (403 for a read-only restricted key)', async () => {
    const key = await app.request('POST', '/v1/developer/keys', {
      key: a.liveKey,
      body: { name: 'Reader', mode: 'live', keyType: 'restricted', scopes: ['patients.read'] },
    });
    expect(key.status).toBe(201);
    const before = await counts();
    expectEnvelope(await create(key.body.key, JANE), 403, 'permission_error', 'missing_scope');
    expect(await counts()).toEqual(before);
    expect((await list(key.body.key)).status).toBe(200);
  });
});

describe('GET /patients', () => {
  it('lists newest first with limit and starting_after', async () => {
    const c = await createTenantWithKeys(app, 'Clinic C');
    const ids: string[] = [];
    for (const firstName of ['One', 'Two', 'Three']) ids.push((await create(c.liveKey, { ...JANE, firstName })).body.id);
    const all = await list(c.liveKey);
    expect(all.status).toBe(200);
    expect(all.body.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    const page1 = await list(c.liveKey, '?limit=2');
    expect(page1.body.map((p: { firstName: string }) => p.firstName)).toEqual(['Three', 'Two']);
    const page2 = await list(c.liveKey, `?limit=2&starting_after=${page1.body[1].id}`);
    expect(page2.body.map((p: { id: string }) => p.id)).toEqual([ids[0]]);
    const page3 = await list(c.liveKey, `?limit=2&starting_after=${ids[0]}`);
    expect(page3.body).toEqual([]);
    // The modes are disjoint.
    expect((await list(c.sandboxKey)).body).toEqual([]);
  });

  it.each(['?limit=0', '?limit=101', '?limit=two'])('rejects %s with 400 naming limit', async (q) => {
    const res = await list(a.liveKey, q);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('limit');
  });

  it('needs patients.read (403 for a key without it)', async () => {
    const key = await app.request('POST', '/v1/developer/keys', {
      key: a.liveKey,
      body: { name: 'Orders only', mode: 'live', keyType: 'restricted', scopes: ['orders.read'] },
    });
    const pat = (await create(a.liveKey, JANE)).body.id;
    expectEnvelope(await list(key.body.key), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await get(key.body.key, pat), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await accessLog(key.body.key, pat), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await patch(key.body.key, pat, { firstName: 'X' }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await list(''), 401, 'authentication_error');
  });
});

describe('GET and PATCH /patients/{id}', () => {
  it('reads one patient and changes only the fields sent', async () => {
    const made = (await create(a.liveKey, { ...JANE, medications: ['metformin'] })).body;
    const read = await get(a.liveKey, made.id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(made);

    setClock(() => new Date(Date.now() + 60_000));
    const res = await patch(a.liveKey, made.id, { lastName: 'Roe', phone: '+1 212 555 0199', address: { ...JANE.address, state: 'ny', postalCode: '10001' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Jane', lastName: 'Roe', phone: '+12125550199', email: JANE.email, medications: ['metformin'] });
    expect(res.body.address).toMatchObject({ state: 'NY', postalCode: '10001', country: 'US' });
    expect(res.body.updatedAt > made.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(made.createdAt);

    const cleared = await patch(a.liveKey, made.id, { address: null, email: null, phone: null, allergies: [] });
    expect(cleared.body).toMatchObject({ address: null, email: null, phone: null, allergies: [], synthetic: false });
    expect((await get(a.liveKey, made.id)).body).toEqual(cleared.body);
    expect((await patch(a.liveKey, made.id, {})).body).toEqual(cleared.body);
  });

  it('refuses to change synthetic and rejects bad fields, changing nothing', async () => {
    const made = (await create(a.sandboxKey, { synthetic: true })).body;
    const before = await counts();
    const flip = await patch(a.sandboxKey, made.id, { synthetic: false });
    expectEnvelope(flip, 400, 'validation_error');
    expect(flip.body.error.param).toBe('synthetic');
    for (const [param, body] of [
      ['dateOfBirth', { dateOfBirth: '2999-01-01' }],
      ['email', { email: 'nope' }],
      ['firstName', { firstName: null }],
      ['address.state', { address: { ...JANE.address, state: 'XX' } }],
    ] as const) {
      const res = await patch(a.sandboxKey, made.id, body);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe(param);
    }
    expect(await counts()).toEqual(before);
    expect((await get(a.sandboxKey, made.id)).body).toEqual(made);
  });

  it("is 404 for another tenant's patient and for the other mode's, on GET, PATCH and the access log", async () => {
    const live = (await create(a.liveKey, JANE)).body.id;
    const sandbox = (await create(a.sandboxKey, JANE)).body.id;
    const before = await counts();
    for (const [key, id] of [
      [b.liveKey, live],
      [b.sandboxKey, sandbox],
      [a.sandboxKey, live],
      [a.liveKey, sandbox],
      [a.liveKey, 'pat_01h2xcejqtf2nbrexx3vqjhp41'],
    ]) {
      expectEnvelope(await get(key, id), 404, 'not_found', 'resource_missing');
      expectEnvelope(await patch(key, id, { firstName: 'Mallory' }), 404, 'not_found');
      expectEnvelope(await accessLog(key, id), 404, 'not_found');
    }
    expect(await counts()).toEqual(before);
    expect((await get(a.liveKey, live)).body.firstName).toBe('Jane');
  });
});

describe('GET /patients/{id}/access-log', () => {
  it('records create, read, list and update with the actor and request id, newest first', async () => {
    const minted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Audit me' } });
    const key = minted.body.key as string;
    const keyId = minted.body.apiKey.id as string;
    const created = await create(key, { synthetic: true });
    const other = await create(key, { synthetic: true });
    const read = await get(key, created.body.id);
    const listed = await list(key, '?limit=2');
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual([other.body.id, created.body.id]);
    const updated = await patch(key, created.body.id, { allergies: ['latex'] });
    const rid = (r: { headers: Headers }) => r.headers.get('x-request-id');

    const res = await accessLog(key, created.body.id);
    expect(res.status).toBe(200);
    expect(res.body.map((e: { action: string }) => e.action)).toEqual(['update', 'list', 'read', 'create']);
    expect(res.body.map((e: { requestId: string }) => e.requestId)).toEqual([rid(updated), rid(listed), rid(read), rid(created)]);
    for (const e of res.body) {
      expect(Object.keys(e).sort()).toEqual(['action', 'actorId', 'actorKind', 'at', 'id', 'patientId', 'requestId']);
      expect(e).toMatchObject({ patientId: created.body.id, actorKind: 'key', actorId: keyId });
      expect(e.id).toMatch(/^pal_/);
    }
    // The list wrote one entry per patient returned; reading the log itself is not a record access.
    const otherLog = (await accessLog(key, other.body.id)).body;
    expect(otherLog.map((e: { action: string }) => e.action)).toEqual(['list', 'create']);
    expect(otherLog[0].requestId).toBe(rid(listed));
    expect((await accessLog(key, created.body.id)).body).toHaveLength(4);

    const page = await accessLog(key, created.body.id, '?limit=3');
    expect(page.body).toHaveLength(3);
    const rest = await accessLog(key, created.body.id, `?limit=3&starting_after=${page.body[2].id}`);
    expect(rest.body.map((e: { action: string }) => e.action)).toEqual(['create']);
  });

  it('writes no entry when a request fails', async () => {
    const made = (await create(a.liveKey, JANE)).body;
    await patch(a.liveKey, made.id, { email: 'broken' });
    const log = (await accessLog(a.liveKey, made.id)).body;
    expect(log.map((e: { action: string }) => e.action)).toEqual(['create']);
  });

  it('admits owner and admin sessions, and refuses developers and providers (403)', async () => {
    const t = await createTenantWithKeys(app, 'Clinic E');
    const admin = await createUserAndLogin(app, t.tenantId, { email: 'admin@e.test', role: 'admin' });
    const owner = await createUserAndLogin(app, t.tenantId, { email: 'owner@e.test', role: 'owner' });
    const dev = await createUserAndLogin(app, t.tenantId, { email: 'dev@e.test', role: 'developer' });
    const doc = await createUserAndLogin(app, t.tenantId, { email: 'doc@e.test', role: 'provider', npi: VALID_NPI, licensedStates: ['CA'], npiVerified: true });
    const live = { headers: { 'x-mode': 'live' } };

    // A user session acts in the mode of X-Mode and is logged as the user.
    const made = await create(admin.token, JANE, live);
    expect(made.status).toBe(201);
    expect(made.body.livemode).toBe(true);
    expect((await get(doc.token, made.body.id, live)).status).toBe(200);
    expectEnvelope(await get(admin.token, made.body.id), 404, 'not_found');

    const asAdmin = await accessLog(admin.token, made.body.id, '', live);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.map((e: { actorKind: string; actorId: string; action: string }) => [e.action, e.actorKind, e.actorId])).toEqual([
      ['read', 'user', doc.id],
      ['create', 'user', admin.id],
    ]);
    expect((await accessLog(owner.token, made.body.id, '', live)).status).toBe(200);
    expect((await accessLog(t.liveKey, made.body.id)).status).toBe(200);
    expectEnvelope(await accessLog(dev.token, made.body.id, '', live), 403, 'permission_error');
    expectEnvelope(await accessLog(doc.token, made.body.id, '', live), 403, 'permission_error', 'role_not_allowed');
  });
});

describe('PHI boundary', () => {
  it('keeps the planted patient out of the event log, the access log and every error body', async () => {
    const planted = { ...JANE, firstName: 'Zebediah', lastName: 'Quillfeather', email: 'zebediah.quillfeather@example.net', dateOfBirth: '1961-07-23' };
    const made = (await create(a.liveKey, planted)).body;
    await get(a.liveKey, made.id);
    await list(a.liveKey);
    await patch(a.liveKey, made.id, { medications: ['lisinopril'] });
    const secrets = ['Zebediah', 'Quillfeather', 'zebediah.quillfeather', '1961-07-23'];

    const errorsSeen = [
      await create(a.liveKey, { ...planted, email: 'zebediah.quillfeather(at)example.net' }),
      await create(a.liveKey, { ...planted, dateOfBirth: '1961-07-32' }),
      await create(a.liveKey, { ...planted, firstName: 'Zebediah'.repeat(20) }),
      await create(a.liveKey, { ...planted, sex: 'Quillfeather' }),
      await create(a.liveKey, { ...planted, synthetic: true }),
      await create(a.liveKey, { ...planted, address: { ...planted.address, state: 'Zebediah' } }),
      await patch(a.liveKey, made.id, { lastName: 'Quillfeather'.repeat(10) }),
      await patch(a.liveKey, made.id, { email: 'zebediah.quillfeather', dateOfBirth: '1961-07-23' }),
      await patch(b.liveKey, made.id, { firstName: 'Zebediah' }),
      await get(a.liveKey, 'Zebediah Quillfeather 1961-07-23'),
      await app.request('POST', '/v1/patients', { key: a.liveKey, rawBody: '{"firstName": "Zebediah", ', headers: { 'content-type': 'application/json' } }),
    ];
    for (const res of errorsSeen) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      for (const s of secrets) expect(res.text).not.toContain(s);
    }

    const dump = async (table: string) =>
      JSON.stringify(((await app.services.database.db.execute(sql.raw(`SELECT * FROM ${table}`))) as unknown as { rows: unknown[] }).rows);
    for (const table of ['events', 'patient_access_log']) {
      const text = await dump(table);
      for (const s of secrets) expect(text).not.toContain(s);
    }
    expect(await dump('patient_access_log')).toContain(made.id);
  });
});

describe('getPatientShippingState (routing)', () => {
  it('returns the state without logging an access, null without an address, 404 outside the scope', async () => {
    const made = (await create(a.liveKey, JANE)).body;
    const bare = (await create(a.liveKey, { ...JANE, address: undefined })).body;
    const db = app.services.database.db;
    const before = await counts();
    expect(await getPatientShippingState(db, { tenantId: a.tenantId, livemode: true }, made.id)).toBe('CA');
    expect(await getPatientShippingState(db, { tenantId: a.tenantId, livemode: true }, bare.id)).toBeNull();
    expect(await counts()).toEqual(before);
    await expect(getPatientShippingState(db, { tenantId: a.tenantId, livemode: false }, made.id)).rejects.toMatchObject({ status: 404 });
    await expect(getPatientShippingState(db, { tenantId: b.tenantId, livemode: true }, made.id)).rejects.toMatchObject({ status: 404 });
  });
});
