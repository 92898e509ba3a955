import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { query } from './helpers/dispatch';
import { countRows, expectEnvelope, startWithTwoClinics, type Clinic, type TestApp } from './helpers/harness';
import { providerSession } from './helpers/orders-world';
import { sampleQuestionnaire } from './helpers/questionnaires';

/*
 * Issue 50, item 3 (DESIGN decision 45): publishing a document identical to the approved version or to a
 * pending one makes no new version (200 with that version); approving a version supersedes every older pending
 * one (`superseded`, out of the provider's queue, refused with 409 when approval is tried); the console's
 * approval view reads the protocol by name with its products, strengths, quantities, sig and refills, and each
 * item's identity fact. Over HTTP (REST /v1 and the console's /api/trpc), on PGlite and PostgreSQL.
 */

let app: TestApp;
let a: Clinic;
let b: Clinic;
let dr: Awaited<ReturnType<typeof providerSession>>;

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
  dr = await providerSession(app, a.tenantId, ['CA']);
});
afterAll(async () => app?.close());

const publish = (key: string, body: unknown, idempotencyKey?: string) => app.request('POST', '/v1/intake/questionnaires', { key, body, idempotencyKey });
const approve = (id: string, body: Record<string, unknown> = {}) => app.request('POST', `/v1/intake/questionnaires/${id}/approve`, { key: dr.token, body });
const versionsOf = async (key: string, qk: string) => {
  const drafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key })).body as { id: string; key: string; version: number; status: string }[];
  return drafts.filter((d) => d.key === qk);
};
const trpc = (token: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });

describe('publishing an identical document', () => {
  it('makes no new version while the same content is pending: 200 with that version, and the count stays', async () => {
    const doc = sampleQuestionnaire('same-pending');
    const first = await publish(a.sandboxKey, doc);
    expect(first.status, first.text).toBe(201);
    const before = await countRows(app, 'questionnaires');
    // Key order and whitespace do not matter: the content hash is of the canonical JSON.
    const reordered = Object.fromEntries(Object.entries(doc).reverse());
    for (const body of [doc, reordered]) {
      const again = await publish(a.sandboxKey, body);
      expect(again.status, again.text).toBe(200);
      expect(again.body).toMatchObject({ id: first.body.id, version: 1, status: 'pending', contentHash: first.body.contentHash, createdAt: first.body.createdAt });
    }
    expect(await countRows(app, 'questionnaires')).toBe(before);
    expect((await versionsOf(a.sandboxKey, 'same-pending')).map((v) => v.version)).toEqual([1]);

    // A changed document is a new pending version (201); the earlier one stays pending beside it.
    const changed = await publish(a.sandboxKey, { ...doc, title: 'Weight management check, revised' });
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({ version: 2, status: 'pending' });
    expect(await countRows(app, 'questionnaires')).toBe(before + 1);
    // Identical to either pending version: that version, newest content match first.
    expect((await publish(a.sandboxKey, doc)).body).toMatchObject({ id: first.body.id, version: 1 });
    expect((await publish(a.sandboxKey, { ...doc, title: 'Weight management check, revised' })).body).toMatchObject({ id: changed.body.id, version: 2 });
  });

  it('makes no new version when the content is the approved version’s: 200 with the version in use', async () => {
    const doc = sampleQuestionnaire('same-approved');
    const v1 = (await publish(a.sandboxKey, doc)).body;
    expect((await approve(v1.id)).status).toBe(200);
    const before = await countRows(app, 'questionnaires');
    const again = await publish(a.sandboxKey, doc);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: v1.id, version: 1, status: 'approved', approvedBy: dr.id });
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('takes identical publications at the same moment as one version (one 201, the others 200)', async () => {
    const doc = sampleQuestionnaire('same-race');
    const answers = await Promise.all([1, 2, 3, 4].map(() => publish(a.sandboxKey, doc)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
    expect((await versionsOf(a.sandboxKey, 'same-race')).map((v) => v.version)).toEqual([1]);
  });

  it('replays under an Idempotency-Key with the status first answered (201 for the new version, 200 for the unchanged one)', async () => {
    const doc = sampleQuestionnaire('same-idem');
    const k1 = randomUUID();
    const k2 = randomUUID();
    const first = await publish(a.sandboxKey, doc, k1);
    const second = await publish(a.sandboxKey, doc, k2);
    expect([first.status, second.status]).toEqual([201, 200]);
    const replay1 = await publish(a.sandboxKey, doc, k1);
    const replay2 = await publish(a.sandboxKey, doc, k2);
    expect([replay1.status, replay2.status]).toEqual([201, 200]);
    expect(replay2.headers.get('idempotent-replayed')).toBe('true');
    expect(replay2.body.id).toBe(first.body.id);
  });

  it('is per tenant and mode, and a retired or superseded version’s content is published anew', async () => {
    const doc = sampleQuestionnaire('same-scope');
    const mine = (await publish(a.sandboxKey, doc)).body;
    const other = await publish(b.sandboxKey, doc);
    const live = await publish(a.liveKey, doc);
    expect([other.status, live.status]).toEqual([201, 201]);
    expect(other.body.id).not.toBe(mine.id);
    expect(live.body.id).not.toBe(mine.id);

    // v1 approved, then v2 approved: v1 retired. Publishing v1's content again is a new version (a rollback to approve).
    expect((await approve(mine.id)).status).toBe(200);
    const v2 = (await publish(a.sandboxKey, { ...doc, title: 'Second' })).body;
    expect((await approve(v2.id)).status).toBe(200);
    const rollback = await publish(a.sandboxKey, doc);
    expect(rollback.status).toBe(201);
    expect(rollback.body).toMatchObject({ version: 3, status: 'pending' });
    // v3 (v1's content) superseded by approving v4; v1's content once more is again a new version, v5.
    const v4 = (await publish(a.sandboxKey, { ...doc, title: 'Fourth' })).body;
    expect((await approve(v4.id)).status).toBe(200);
    const again = await publish(a.sandboxKey, doc);
    expect(again.status).toBe(201);
    expect(again.body.version).toBe(5);
  });

  it('a bad document is still a 400, nothing written', async () => {
    const before = await countRows(app, 'questionnaires');
    expectEnvelope(await publish(a.sandboxKey, { ...sampleQuestionnaire('same-bad'), items: [] }), 400, 'validation_error');
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('is documented: 201 for a new version, 200 for the existing one', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    const responses = doc.paths['/intake/questionnaires'].post.responses;
    expect(responses['201'].content['application/json'].schema).toEqual(responses['200'].content['application/json'].schema);
    expect(responses['200'].description).toMatch(/identical/);
  });
});

describe('approving a version supersedes the older pending ones', () => {
  it('marks v2 superseded when v3 is approved, takes it out of the queue, and refuses it with a clear 409', async () => {
    const doc = sampleQuestionnaire('supersede');
    const v1 = (await publish(a.sandboxKey, doc)).body;
    expect((await approve(v1.id)).status).toBe(200);
    const v2 = (await publish(a.sandboxKey, { ...doc, title: 'Two' })).body;
    const v3 = (await publish(a.sandboxKey, { ...doc, title: 'Three' })).body;
    const v4 = (await publish(a.sandboxKey, { ...doc, title: 'Four' })).body;
    expect((await versionsOf(a.sandboxKey, 'supersede')).map((v) => `${v.version}:${v.status}`)).toEqual(['4:pending', '3:pending', '2:pending']);

    const ok = await approve(v3.id, { contentHash: v3.contentHash });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ id: v3.id, status: 'approved' });

    // The queue (REST drafts, and the console's pending list) holds only v4: newer than the approval, still pending.
    expect((await versionsOf(a.sandboxKey, 'supersede')).map((v) => `${v.version}:${v.status}`)).toEqual(['4:pending']);
    const consoleVersions = await trpc(dr.token).intake.questionnaireVersions.query({ key: 'supersede' });
    expect(consoleVersions.map((v) => `${v.version}:${v.status}`)).toEqual(['4:pending', '3:approved', '2:superseded', '1:retired']);
    expect(consoleVersions.filter((v) => v.status === 'pending').map((v) => v.id)).toEqual([v4.id]);
    const two = consoleVersions.find((v) => v.version === 2)!;
    expect(two).toMatchObject({ supersededBy: v3.id, approvedBy: null, approvedAt: null, retiredAt: null });
    expect(Date.parse(two.supersededAt!)).toBe(Date.parse(ok.body.approvedAt));
    expect(consoleVersions.find((v) => v.version === 1)).toMatchObject({ status: 'retired', supersededBy: null, supersededAt: null });

    // Approving v2 now: 409, naming what superseded it; nothing changes.
    const refused = await approve(v2.id, { contentHash: v2.contentHash });
    expectEnvelope(refused, 409, 'conflict', 'questionnaire_superseded');
    expect(refused.body.error.message).toBe(
      'This questionnaire version was superseded when version 3 was approved; it can no longer be approved. To use its content, publish it again as a new version.',
    );
    const current = await app.request('GET', '/v1/intake/questionnaires/supersede', { key: a.sandboxKey });
    expect(current.body).toMatchObject({ id: v3.id, version: 3 });
    // A superseded version is no approved one: not readable by its number.
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/supersede?version=2', { key: a.sandboxKey }), 404, 'not_found');

    // Approving v4 retires v3 and supersedes nothing else; v2 stays superseded by v3.
    expect((await approve(v4.id)).status).toBe(200);
    const after = await trpc(dr.token).intake.questionnaireVersions.query({ key: 'supersede' });
    expect(after.map((v) => `${v.version}:${v.status}`)).toEqual(['4:approved', '3:retired', '2:superseded', '1:retired']);
    expect(after.find((v) => v.version === 2)?.supersededBy).toBe(v3.id);
  });

  it('leaves a pending version of another key, tenant or mode alone, and does not touch drafts', async () => {
    const doc = sampleQuestionnaire('supersede-scope');
    const otherKey = (await publish(a.sandboxKey, sampleQuestionnaire('supersede-other'))).body;
    const live = (await publish(a.liveKey, doc)).body;
    const otherTenant = (await publish(b.sandboxKey, doc)).body;
    const v1 = (await publish(a.sandboxKey, doc)).body;
    const v2 = (await publish(a.sandboxKey, { ...doc, title: 'Two' })).body;
    expect((await approve(v2.id)).status).toBe(200);
    expect((await versionsOf(a.sandboxKey, 'supersede-scope')).map((v) => v.id)).toEqual([]);
    expect((await versionsOf(a.sandboxKey, 'supersede-other')).map((v) => v.id)).toEqual([otherKey.id]);
    expect((await versionsOf(a.liveKey, 'supersede-scope')).map((v) => v.id)).toEqual([live.id]);
    expect((await versionsOf(b.sandboxKey, 'supersede-scope')).map((v) => v.id)).toEqual([otherTenant.id]);
    expectEnvelope(await approve(v1.id), 409, 'conflict', 'questionnaire_superseded');
  });
});

describe('the approval view’s data (console intake.questionnaireVersions)', () => {
  it('names the protocol with each product’s name, strength and form, quantity, sig and refills, and each item’s identity fact', async () => {
    const product = async (body: Record<string, unknown>) => {
      const r = await app.request('POST', '/v1/products', { key: a.sandboxKey, body: { sku: `SKU-${randomUUID().slice(0, 8)}`, rxRequired: true, active: true, ...body } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as string;
    };
    const sema = await product({ name: 'Semaglutide', form: 'injection', strength: '0.25 mg' });
    const needles = await product({ name: 'Pen needles', form: 'device' });
    const protocol = await app.request('POST', '/v1/protocols', {
      key: a.sandboxKey,
      body: {
        name: 'GLP-1 start',
        active: true,
        items: [
          { productId: sema, quantity: 4, sig: 'Inject 0.25 mg under the skin once weekly', refills: 2 },
          { productId: needles, quantity: 100, sig: 'Use one needle per injection', refills: 0 },
        ],
      },
    });
    expect(protocol.status, protocol.text).toBe(201);
    const doc = sampleQuestionnaire('view-protocol', { protocolId: protocol.body.id });
    doc.items = [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth' } as (typeof doc.items)[number],
      { linkId: 'sex', text: 'Sex assigned at birth', type: 'choice', required: true, options: [{ value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }], fact: 'sexAtBirth' } as never,
      ...doc.items.slice(1),
    ];
    const pending = await publish(a.sandboxKey, doc);
    expect(pending.status, pending.text).toBe(201);
    const withoutProtocol = await publish(a.sandboxKey, sampleQuestionnaire('view-none'));
    expect(withoutProtocol.status).toBe(201);

    const all = await trpc(dr.token).intake.questionnaireVersions.query({});
    const v = all.find((x) => x.id === pending.body.id)!;
    expect(v.protocol).toEqual({
      id: protocol.body.id,
      name: 'GLP-1 start',
      active: true,
      items: [
        { productId: sema, productName: 'Semaglutide', form: 'injection', strength: '0.25 mg', productActive: true, quantity: 4, sig: 'Inject 0.25 mg under the skin once weekly', refills: 2 },
        { productId: needles, productName: 'Pen needles', form: 'device', strength: null, productActive: true, quantity: 100, sig: 'Use one needle per injection', refills: 0 },
      ],
    });
    expect(v.document.items.filter((i) => i.fact).map((i) => `${i.linkId}:${i.fact}`)).toEqual(['dob:dateOfBirth', 'sex:sexAtBirth']);
    expect(all.find((x) => x.id === withoutProtocol.body.id)?.protocol).toBeNull();

    // The protocol as it stands: a later edit shows (it is what an approval of a submission would order).
    expect((await app.request('PATCH', `/v1/protocols/${protocol.body.id}`, { key: a.sandboxKey, body: { name: 'GLP-1 start (2025)' } })).status).toBe(200);
    expect((await trpc(dr.token).intake.questionnaireVersions.query({ key: 'view-protocol' }))[0].protocol?.name).toBe('GLP-1 start (2025)');
    // REST keeps the questionnaire record lean: the protocol is read at /v1/protocols.
    const rest = (await versionsOf(a.sandboxKey, 'view-protocol'))[0];
    expect(rest).not.toHaveProperty('protocol');
  });
});

describe('migration 0031 (questionnaire superseded)', () => {
  const file = fs.readdirSync(path.resolve('db/migrations')).find((f) => f.endsWith('_questionnaire_superseded.sql'))!;
  // Its data statement only: the columns it adds exist already in this database.
  const updates = fs
    .readFileSync(path.resolve('db/migrations', file), 'utf8')
    .split('--> statement-breakpoint')
    .map((st) => st.trim())
    .filter((st) => /^UPDATE/m.test(st) && !/^ALTER/m.test(st));
  const migrate = async () => {
    for (const st of updates) await app.services.database.db.execute(sql.raw(st));
  };
  type Row = { id: string; status: string; superseded_by: string | null; superseded_at: Date | string | null; approved_at: Date | string | null };
  const rowsOf = async (ids: string[]) =>
    Object.fromEntries((await query<Row>(app, sql`select id, status, superseded_by, superseded_at, approved_at from questionnaires where id in ${ids}`)).map((r) => [r.id, r]));
  const ms = (d: Date | string | null) => (d === null ? null : new Date(d).getTime());

  it('is in the journal, with one data statement', () => {
    const journal = JSON.parse(fs.readFileSync(path.resolve('db/migrations/meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toContain(file);
    expect(updates).toHaveLength(1);
  });

  it('supersedes pending versions an approval already passed (by the first such approval), leaves the rest, and runs again as a no-op', async () => {
    const doc = sampleQuestionnaire('legacy');
    // p1 pending; p2 approved; p3 approved (p2 retired); p4 pending, newer than any approval.
    const p1 = (await publish(a.sandboxKey, doc)).body;
    const p2 = (await publish(a.sandboxKey, { ...doc, title: 'Two' })).body;
    expect((await approve(p2.id)).status).toBe(200);
    const p3 = (await publish(a.sandboxKey, { ...doc, title: 'Three' })).body;
    expect((await approve(p3.id)).status).toBe(200);
    const p4 = (await publish(a.sandboxKey, { ...doc, title: 'Four' })).body;
    const untouched = (await publish(a.sandboxKey, sampleQuestionnaire('legacy-untouched'))).body;
    // As a version before decision 45 left them: the passed-over version still pending.
    await app.services.database.db.execute(sql`update questionnaires set status = 'pending', superseded_by = null, superseded_at = null where id = ${p1.id}`);
    expect((await versionsOf(a.sandboxKey, 'legacy')).map((v) => v.version)).toEqual([4, 1]);

    await migrate();
    const ids = [p1.id, p2.id, p3.id, p4.id, untouched.id];
    const after = await rowsOf(ids);
    expect(after[p1.id]).toMatchObject({ status: 'superseded', superseded_by: p2.id });
    expect(ms(after[p1.id].superseded_at)).toBe(ms(after[p2.id].approved_at));
    expect(after[p2.id]).toMatchObject({ status: 'retired', superseded_by: null });
    expect(after[p3.id]).toMatchObject({ status: 'approved', superseded_by: null });
    expect(after[p4.id]).toMatchObject({ status: 'pending', superseded_by: null });
    expect(after[untouched.id]).toMatchObject({ status: 'pending', superseded_by: null });
    expect((await versionsOf(a.sandboxKey, 'legacy')).map((v) => v.version)).toEqual([4]);
    expectEnvelope(await approve(p1.id), 409, 'conflict', 'questionnaire_superseded');

    await migrate();
    expect(await rowsOf(ids)).toEqual(after);
  });
});
