/**
 * The same-SQL reference of the flows bench (issue 35, item 2): bare `node:http` + `pg`, serving the three
 * public runtime routes a patient run uses with exactly the statements the project sends, in the same
 * transactions (bench/same-sql/statements.ts), each a named prepared statement. No validation, no
 * framework, no middleware: what remains is the work any server of this contract must do — parse the body,
 * run the questionnaire engine on submit, sign an Ed25519 certificate, run the SQL, write JSON. The flows
 * scenario compares the project's runs/s and CPU per run with this server's in the same run.
 *
 * Env: PORT, DATABASE_URL. Serves only what the bench sends; anything else is a 404.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { SignJWT } from 'jose';
import { evaluate } from '@/server/domain/intake/shared/engine';
import { answersHash } from '@/server/domain/intake/certificate-secrets';
import { CERTIFICATE_TYP } from '@/server/domain/intake/certificates';
import { submissionReference } from '@/server/domain/intake/submission-reference';
import { publicDefinition } from '@/server/domain/flows/runtime/public-definition';
import type { PinnedVersion } from '@/server/domain/flows/runtime/pinned-version';
import { recordedOutcome, sessionOutcome } from '@/server/domain/flows/runtime/progress';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { newId, newSecretId } from '@/server/lib/ids';
import { STATEMENTS, type StatementId } from './same-sql/statements';
import { values, type RunValues, type SubmitValues } from './same-sql/values';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const SECRET = new TextEncoder().encode('same-sql reference: answers hash key');
const ISSUER = 'http://127.0.0.1';
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const signer = generateKeyPairSync('ed25519').privateKey;

type Client = pg.Pool | pg.PoolClient;
async function run<V>(q: Client, id: StatementId, v: V): Promise<pg.QueryResult> {
  const text = STATEMENTS[id];
  const params = (values[id] as (v: V) => unknown[])(v);
  return id === 'begin' || id === 'commit' ? q.query(text) : q.query({ name: `ref_${id}`, text, values: params });
}

/** What the reference knows of a key: read once, outside any run (the project caches the same). */
interface World {
  tenant: string;
  live: boolean;
  flow: string;
  version: string;
  document: FlowDocumentShape;
  clinicalPlaneHash: string;
  questionnaire: { id: string; key: string; version: number; contentHash: string; document: QuestionnaireDocument };
  definition: unknown;
}
const worlds = new Map<string, Promise<World>>();
function worldOf(key: string): Promise<World> {
  let w = worlds.get(key);
  if (!w) worlds.set(key, (w = loadWorld(key)));
  return w;
}
async function loadWorld(key: string): Promise<World> {
  const { rows } = await pool.query(
    `select k.tenant_id, k.livemode, f.id as flow_id, v.id as version_id, v.document, v.clinical_plane_hash, q.id as q_id, q.key as q_key, q.version as q_version, q.content_hash, q.document as q_document
     from embed_keys k join flows f on f.id = k.flow_id join flow_versions v on v.id = f.active_version_id join questionnaires q on q.id = v.questionnaire_id where k.id = $1`,
    [key],
  );
  const r = rows[0];
  if (!r) throw new Error(`unknown embed key ${key}`);
  const questionnaire = { id: r.q_id, key: r.q_key, version: r.q_version, contentHash: r.content_hash, document: r.q_document };
  const pinned = { version: { id: r.version_id, flowId: r.flow_id, document: r.document }, questionnaire } as unknown as PinnedVersion;
  return {
    tenant: r.tenant_id,
    live: r.livemode,
    flow: r.flow_id,
    version: r.version_id,
    document: r.document,
    clinicalPlaneHash: r.clinical_plane_hash,
    questionnaire,
    definition: { ...publicDefinition(pinned), sandbox: !r.livemode },
  };
}

function base(key: string, w: World, session: string): RunValues {
  const at = new Date().toISOString();
  return { key, tenant: w.tenant, live: w.live, flow: w.flow, version: w.version, session, at, day: at.slice(0, 10) };
}

async function createSession(key: string, w: World) {
  const v = base(key, w, newSecretId('flowSession'));
  const expiresAt = new Date(Date.parse(v.at) + SESSION_TTL_MS).toISOString();
  await run(pool, 'createSession', { ...v, eventId: newId('event'), expiresAt });
  return { status: 201, body: { sessionId: v.session, versionId: w.version, expiresAt, arm: null, variantKey: null, definition: w.definition } };
}

async function saveStep(key: string, w: World, session: string, body: { stepId: string; answers: Record<string, unknown> }) {
  const v = base(key, w, session);
  if (w.document.steps.find((s) => s.id === body.stepId)?.kind === 'contact') await run(pool, 'heldSteps', v);
  const { rows } = await run(pool, 'holdStep', { ...v, stepId: body.stepId, held: body.answers, eventId: newId('event') });
  const saved = new Set<string>(rows[0]?.step_ids ?? []);
  return { status: 200, body: { ok: true, nextStepId: w.document.steps.find((s) => s.kind !== 'outcome' && !saved.has(s.id))?.id ?? null } };
}

async function submit(key: string, w: World, session: string, raw: string, path: string, idempotencyKey: string, patient: { name: string; email: string }) {
  const v = base(key, w, session);
  const c = await pool.connect();
  try {
    await run(c, 'begin', v);
    const s: Partial<SubmitValues> & RunValues = { ...v, requestId: newId('request'), idempotencyKey, fingerprint: createHash('sha256').update(`POST ${path}\n${raw}`).digest('hex'), email: patient.email };
    await run(c, 'claimIdempotency', s);
    await run(c, 'sessionLocked', s);
    const held = ((await run(c, 'heldSteps', s)).rows[0]?.steps ?? {}) as Record<string, Record<string, unknown>>;
    const contact = held.contact as { name: string; email: string; state: string; dateOfBirth: string };
    const answers = { ...held.health };
    const evaluation = evaluate(w.questionnaire.document, answers, { asOf: v.day });
    const [first, ...rest] = contact.name.split(' ');
    s.patient = { id: newId('patient'), logId: newId('patientAccess'), first, last: rest.join(' '), dob: contact.dateOfBirth, sex: (answers.sex as string) ?? null, state: contact.state };
    await run(c, 'patientByEmail', s);
    await run(c, 'insertPatient', s);
    const id = newId('intakeSubmission');
    const claims = { iss: ISSUER, sub: id, tid: w.tenant, livemode: w.live, iat: Math.floor(Date.now() / 1000), qk: w.questionnaire.key, qv: w.questionnaire.version, qh: w.questionnaire.contentHash, cph: w.clinicalPlaneHash, ah: answersHash(SECRET, w.tenant, answers), verdict: 'eligible' };
    const certificate = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'reference', typ: CERTIFICATE_TYP }).sign(signer);
    const submission = { reference: submissionReference(id), verdict: evaluation.verdict, hits: evaluation.hits, flags: evaluation.flags };
    s.submission = {
      id,
      questionnaireId: w.questionnaire.id,
      questionnaireKey: w.questionnaire.key,
      questionnaireVersion: w.questionnaire.version,
      answers: JSON.stringify(answers),
      facts: JSON.stringify({ name: contact.name, email: contact.email, dateOfBirth: contact.dateOfBirth, sexAtBirth: answers.sex ?? null, state: contact.state, phone: null, address: null }),
      eventIds: [newId('event'), newId('event'), newId('event'), newId('event')],
      verdict: evaluation.verdict,
      missing: JSON.stringify(evaluation.missing),
      hits: JSON.stringify(evaluation.hits),
      flags: JSON.stringify(evaluation.flags),
      certificate,
      reference: submission.reference,
    };
    await run(c, 'insertSubmission', s);
    s.released = JSON.stringify(Object.fromEntries(Object.keys(held).map((k) => [k, {}])));
    await run(c, 'closeSession', s);
    const body = { sessionId: session, ...sessionOutcome(w.document, 'eligible'), ...recordedOutcome(w.questionnaire.document, submission), sandbox: !w.live, submissionId: id, certificate };
    s.response = JSON.stringify(body);
    await run(c, 'completeIdempotency', s);
    await run(c, 'commit', s);
    return { status: 200, body };
  } catch (err) {
    await c.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    c.release();
  }
}

const ROUTE = /^\/v1\/public\/flows\/([^/]+)\/sessions(?:\/([^/]+)\/(steps|submit))?$/;

async function handle(req: http.IncomingMessage, raw: string) {
  if (req.url === '/healthz') return { status: 200, body: { ok: true } };
  const m = req.method === 'POST' ? ROUTE.exec(req.url ?? '') : null;
  if (!m) return { status: 404, body: { error: 'not found' } };
  const [, key, session, action] = m;
  const w = await worldOf(key);
  const body = JSON.parse(raw || '{}');
  if (!session) return createSession(key, w);
  if (action === 'steps') return saveStep(key, w, session, body);
  return submit(key, w, session, raw, req.url!, String(req.headers['idempotency-key']), body.patient);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    handle(req, Buffer.concat(chunks).toString('utf8')).then(
      ({ status, body }) => {
        res.statusCode = status;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(body));
      },
      (err: unknown) => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
      },
    );
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
