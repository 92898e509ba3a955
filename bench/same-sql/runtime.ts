/**
 * The flows runtime of the same-SQL reference and of the flows stack floor (issue 35): the three routes a
 * patient run uses, doing what any server of this contract must do (run the questionnaire engine on submit,
 * sign an Ed25519 certificate, send the project's statements in the project's transactions, shape the
 * answer), with no validation and no project code on the path. How a statement reaches PostgreSQL is the
 * caller's: bare `pg` (bench/same-sql-server.ts) or drizzle (bench/flows-stack-floor-server.ts).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
import { STATEMENTS, type StatementId } from './statements';
import { values, type RunValues, type SubmitValues } from './values';

type Rows = { rows: Record<string, unknown>[] };
/** Sends one statement of the list with its values; `begin` and `commit` are the transaction's, not sent here. */
export type Run = (id: Exclude<StatementId, 'begin' | 'commit'>, params: unknown[], text: string) => Promise<Rows>;
export interface Database {
  /** Outside a transaction: the statement commits on its own. */
  run: Run;
  /** `begin` … `commit` around `fn`, rolled back when it throws. */
  transaction<T>(fn: (run: Run) => Promise<T>): Promise<T>;
  /** A one-off read (the embed key's world, outside any run). */
  rows(text: string, params: unknown[]): Promise<Record<string, unknown>[]>;
}

const send = <V>(run: Run, id: Exclude<StatementId, 'begin' | 'commit'>, v: V) => run(id, (values[id] as (v: V) => unknown[])(v), STATEMENTS[id]);

const SECRET = new TextEncoder().encode('same-sql reference: answers hash key');
const ISSUER = 'http://127.0.0.1';
const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
const signer = generateKeyPairSync('ed25519').privateKey;

/** What a server knows of a key: read once, outside any run (the project caches the same). */
export interface World {
  tenant: string;
  live: boolean;
  flow: string;
  version: string;
  document: FlowDocumentShape;
  clinicalPlaneHash: string;
  questionnaire: { id: string; key: string; version: number; contentHash: string; document: QuestionnaireDocument };
  definition: ReturnType<typeof publicDefinition> & { sandbox: boolean };
}

export function flowsRuntime(db: Database) {
  const worlds = new Map<string, Promise<World>>();
  function worldOf(key: string): Promise<World> {
    let w = worlds.get(key);
    if (!w) worlds.set(key, (w = loadWorld(key)));
    return w;
  }
  async function loadWorld(key: string): Promise<World> {
    const [r] = await db.rows(
      `select k.tenant_id, k.livemode, f.id as flow_id, v.id as version_id, v.document, v.clinical_plane_hash, q.id as q_id, q.key as q_key, q.version as q_version, q.content_hash, q.document as q_document
       from embed_keys k join flows f on f.id = k.flow_id join flow_versions v on v.id = f.active_version_id join questionnaires q on q.id = v.questionnaire_id where k.id = $1`,
      [key],
    );
    if (!r) throw new Error(`unknown embed key ${key}`);
    const questionnaire = { id: r.q_id, key: r.q_key, version: r.q_version, contentHash: r.content_hash, document: r.q_document } as World['questionnaire'];
    const pinned = { version: { id: r.version_id, flowId: r.flow_id, document: r.document }, questionnaire } as unknown as PinnedVersion;
    return {
      tenant: r.tenant_id as string,
      live: r.livemode as boolean,
      flow: r.flow_id as string,
      version: r.version_id as string,
      document: r.document as FlowDocumentShape,
      clinicalPlaneHash: r.clinical_plane_hash as string,
      questionnaire,
      // Frozen, as the project serves it: the response check trusts a frozen definition once checked (server/api/checked-once.ts).
      definition: Object.freeze({ ...publicDefinition(pinned), sandbox: !r.livemode }),
    };
  }

  function base(key: string, w: World, session: string): RunValues {
    const at = new Date().toISOString();
    return { key, tenant: w.tenant, live: w.live, flow: w.flow, version: w.version, session, at, day: at.slice(0, 10) };
  }

  async function createSession(key: string, w: World) {
    const v = base(key, w, newSecretId('flowSession'));
    const expiresAt = new Date(Date.parse(v.at) + SESSION_TTL_MS).toISOString();
    await send(db.run, 'createSession', { ...v, eventId: newId('event'), expiresAt });
    return { sessionId: v.session, versionId: w.version, expiresAt, arm: null, variantKey: null, definition: w.definition };
  }

  async function saveStep(key: string, w: World, session: string, body: { stepId: string; answers: Record<string, unknown> }) {
    const v = base(key, w, session);
    if (w.document.steps.find((s) => s.id === body.stepId)?.kind === 'contact') await send(db.run, 'heldSteps', v);
    const { rows } = await send(db.run, 'holdStep', { ...v, stepId: body.stepId, held: body.answers, eventId: newId('event') });
    const saved = new Set<string>((rows[0]?.step_ids as string[] | undefined) ?? []);
    return { ok: true as const, nextStepId: w.document.steps.find((s) => s.kind !== 'outcome' && !saved.has(s.id))?.id ?? null };
  }

  function submit(key: string, w: World, session: string, raw: string, path: string, idempotencyKey: string, patient: { name: string; email: string }) {
    const v = base(key, w, session);
    return db.transaction(async (run) => {
      const s: Partial<SubmitValues> & RunValues = { ...v, requestId: newId('request'), idempotencyKey, fingerprint: createHash('sha256').update(`POST ${path}\n${raw}`).digest('hex'), email: patient.email };
      await send(run, 'claimIdempotency', s);
      await send(run, 'sessionLocked', s);
      const held = ((await send(run, 'heldSteps', s)).rows[0]?.steps ?? {}) as Record<string, Record<string, unknown>>;
      const contact = held.contact as { name: string; email: string; state: string; dateOfBirth: string };
      const answers = { ...held.health };
      const evaluation = evaluate(w.questionnaire.document, answers, { asOf: v.day });
      const [first, ...rest] = contact.name.split(' ');
      s.patient = { id: newId('patient'), logId: newId('patientAccess'), first, last: rest.join(' '), dob: contact.dateOfBirth, sex: (answers.sex as string) ?? null, state: contact.state };
      await send(run, 'patientByEmail', s);
      await send(run, 'insertPatient', s);
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
        noticeIds: [newId('patientNotice'), newId('patientNotice')],
        verdict: evaluation.verdict,
        missing: JSON.stringify(evaluation.missing),
        hits: JSON.stringify(evaluation.hits),
        flags: JSON.stringify(evaluation.flags),
        certificate,
        reference: submission.reference,
      };
      await send(run, 'insertSubmission', s);
      s.released = JSON.stringify(Object.fromEntries(Object.keys(held).map((k) => [k, {}])));
      await send(run, 'closeSession', s);
      const body = { sessionId: session, ...sessionOutcome(w.document, 'eligible'), ...recordedOutcome(w.questionnaire.document, submission), sandbox: !w.live, submissionId: id, certificate };
      s.response = JSON.stringify(body);
      await send(run, 'completeIdempotency', s);
      return body;
    });
  }

  return { worldOf, createSession, saveStep, submit };
}

/** The routes a run uses: `POST …/sessions`, `…/sessions/{id}/steps`, `…/sessions/{id}/submit`. */
export const RUN_ROUTE = /^\/v1\/public\/flows\/([^/]+)\/sessions(?:\/([^/]+)\/(steps|submit))?$/;

/** Collects a request's body, then writes what `answer` resolves to as JSON (a 500 with the message when it throws). */
export function serveJson(answer: (req: IncomingMessage, raw: string) => Promise<{ status: number; body: unknown }>) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(req, Buffer.concat(chunks).toString('utf8')).then(
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
  };
}
