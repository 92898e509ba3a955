/**
 * The statements the project sends for one patient run of the flows bench (session + 3 step saves + submit),
 * copied from what the runtime sends (issue 35, item 2): the one list both the same-SQL reference server
 * (bench/same-sql-server.ts) executes and tests/postgres/same-sql-statements.test.ts holds the project to. A
 * change to the runtime's SQL fails that test until this list (and the reference's values for it) follow,
 * so the reference cannot drift from the project silently.
 *
 * Texts are compared with runs of whitespace folded into one space.
 */
export const STATEMENTS = {
  /** The session, its `flow.viewed` event and the `sessions` count, in one statement. */
  createSession: `
    with created as (
  insert into flow_sessions (id, tenant_id, livemode, flow_id, flow_version_id, embed_key_id, experiment_id, variant_key, status, campaign, expires_at, created_at, updated_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
  returning 1), logged as (insert into events (id, tenant_id, livemode, type, data, created_at) select $14::text, $15::text, $16::boolean, $17::text, $18::jsonb, $19::timestamptz returning 1), "landed" as (
      insert into flow_session_marks (session_id, mark, created_at) select $20::text, $21::text, $22::timestamptz
      on conflict do nothing returning 1
    ), "bumped" as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, "sessions")
      select $23, $24, $25, $26, $27::date, $28,
        $29, $30, $31::smallint, 1
      from "landed"
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set "sessions" = flow_stats_daily."sessions" + 1
      returning 1
    )
    select (select count(*) from created)::int as created
  `,
  /** A step's answers held, its first-save mark and `step.completed`, the view and completion counts. */
  holdStep: `
    with open_session as (
      select 1 from flow_sessions
      where tenant_id = $1 and livemode = $2 and id = $3 and status = 'open' and expires_at > $4
      for update
    ), merged as (
      insert into flow_session_answers (session_id, tenant_id, livemode, steps, updated_at)
      select $5::text, $6::text, $7::boolean, $8::jsonb, $9::timestamptz from open_session
      on conflict (session_id) do update set steps = flow_session_answers.steps || excluded.steps, updated_at = excluded.updated_at
      returning steps
    ), first_save as (
      insert into flow_session_marks (session_id, mark, created_at) select $10::text, $11::text, $12::timestamptz from open_session
      on conflict do nothing returning 1
    ), logged as (
      insert into events (id, tenant_id, livemode, type, data, created_at) select $13::text, $14::text, $15::boolean, $16::text, $17::jsonb, $18::timestamptz where exists (select 1 from first_save) returning 1
    ), "viewed_landed" as (
      insert into flow_session_marks (session_id, mark, created_at) select $19::text, $20::text, $21::timestamptz where exists (select 1 from open_session)
      on conflict do nothing returning 1
    ), "viewed_bumped" as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, "views")
      select $22, $23, $24, $25, $26::date, $27,
        $28, $29, $30::smallint, 1
      from "viewed_landed"
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set "views" = flow_stats_daily."views" + 1
      returning 1
    ), "landed" as (
      insert into flow_session_marks (session_id, mark, created_at) select $31::text, $32::text, $33::timestamptz where exists (select 1 from open_session)
      on conflict do nothing returning 1
    ), "bumped" as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, "completes")
      select $34, $35, $36, $37, $38::date, $39,
        $40, $41, $42::smallint, 1
      from "landed"
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set "completes" = flow_stats_daily."completes" + 1
      returning 1
    )
    select (select array(select jsonb_object_keys(steps)) from merged) as step_ids, (select count(*) from logged)::int as logged
  `,
  /** The held answers (the contact step reconciles facts with them; submit reads them all). */
  heldSteps: `select "steps" from "flow_session_answers" where ("flow_session_answers"."tenant_id" = $1 and "flow_session_answers"."livemode" = $2 and "flow_session_answers"."session_id" = $3) limit $4`,
  begin: `begin`,
  /** The Idempotency-Key claimed under an advisory lock. */
  claimIdempotency: `
    with locked as (select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as got), claimed as (
      insert into idempotency_keys (id, scope, livemode, key, request_hash, credential, state, created_at)
      select $2::text, $3::text, $4::boolean, $5::text, $6::text, $7::text, 'in_flight', $8::timestamptz
      from locked where got
      on conflict do nothing returning 1
    )
    select (select got from locked) as got, (select count(*) from claimed)::int as claimed
  `,
  /** The session row, locked for the submit. */
  sessionLocked: `select "id", "tenant_id", "livemode", "flow_id", "flow_version_id", "embed_key_id", "experiment_id", "variant_key", "status", "verdict", "submission_id", "campaign", "checkout_completed_at", "external_order_id", "expires_at", "completed_at", "created_at", "updated_at" from "flow_sessions" where (("flow_sessions"."tenant_id" = $1 and "flow_sessions"."livemode" = $2) and "flow_sessions"."id" = $3) limit $4 for update`,
  /** The patient matched by e-mail within the tenant and mode. */
  patientByEmail: `select "id", "tenant_id", "livemode", "synthetic", "first_name", "last_name", "date_of_birth", "sex", "email", "phone", "address", "state", "allergies", "medications", "notify_email", "notify_sms", "sms_consent_at", "created_at", "updated_at" from "patients" where (("patients"."tenant_id" = $1 and "patients"."livemode" = $2) and lower("patients"."email") = $3) order by "patients"."id" asc limit $4`,
  /** A new patient and its access-log row. */
  insertPatient: `with "also_0" as (insert into "patient_access_log" ("id", "tenant_id", "livemode", "patient_id", "action", "actor_kind", "actor_id", "request_id", "at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning "id") insert into "patients" ("id", "tenant_id", "livemode", "synthetic", "first_name", "last_name", "date_of_birth", "sex", "email", "phone", "address", "state", "allergies", "medications", "notify_email", "notify_sms", "sms_consent_at", "created_at", "updated_at") values ($10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, default, default, default, $24, $25) returning "id", "tenant_id", "livemode", "synthetic", "first_name", "last_name", "date_of_birth", "sex", "email", "phone", "address", "state", "allergies", "medications", "notify_email", "notify_sms", "sms_consent_at", "created_at", "updated_at"`,
  /** The submission, its answers (PHI table) and its four events. */
  insertSubmission: `with "also_0" as (insert into "intake_answers" ("submission_id", "tenant_id", "livemode", "answers", "facts") values ($1, $2, $3, $4, $5) returning "submission_id"), "also_1" as (insert into "events" ("id", "tenant_id", "livemode", "type", "data", "created_at") values ($6, $7, $8, $9, $10, $11), ($12, $13, $14, $15, $16, $17), ($18, $19, $20, $21, $22, $23), ($24, $25, $26, $27, $28, $29) returning "id"), "also_2" as (insert into "patient_notices" ("id", "tenant_id", "livemode", "subject_kind", "subject_id", "milestone", "channel", "cause", "status", "skip_reason", "patient_id", "subject", "body", "via", "attempts", "sending_at", "last_error", "sent_at", "created_at", "updated_at") values ($30, $31, $32, $33, $34, $35, $36, $37, default, default, default, default, default, default, default, default, default, default, $38, $39), ($40, $41, $42, $43, $44, $45, $46, $47, default, default, default, default, default, default, default, default, default, default, $48, $49) returning "id") insert into "intake_submissions" ("id", "tenant_id", "livemode", "questionnaire_id", "questionnaire_key", "questionnaire_version", "patient_id", "source", "status", "verdict", "missing", "hits", "flags", "certificate", "embed_key_id", "flow_id", "flow_session_id", "reference", "order_id", "reviewed_by", "reviewed_at", "review_note", "identity_status", "identity_fields", "identity_matched_patient_id", "identity_resolution", "identity_resolved_by", "identity_resolved_at", "created_at", "updated_at") values ($50, $51, $52, $53, $54, $55, $56, $57, $58, $59, $60, $61, $62, $63, $64, $65, $66, $67, default, default, default, default, default, default, default, default, default, default, $68, $69) returning "id", "tenant_id", "livemode", "questionnaire_id", "questionnaire_key", "questionnaire_version", "patient_id", "source", "status", "verdict", "missing", "hits", "flags", "certificate", "embed_key_id", "flow_id", "flow_session_id", "reference", "order_id", "reviewed_by", "reviewed_at", "review_note", "identity_status", "identity_fields", "identity_matched_patient_id", "identity_resolution", "identity_resolved_by", "identity_resolved_at", "created_at", "updated_at"`,
  /** The session closed, its held answers released, the view and `qualified` counts. */
  closeSession: `
    with closed as (
      update flow_sessions set status = 'completed', verdict = $1, submission_id = $2, completed_at = $3, updated_at = $4
      where tenant_id = $5 and livemode = $6 and id = $7
      returning 1
    ), released as (
      update "flow_session_answers" set steps = $8::jsonb, updated_at = $9 where ("flow_session_answers"."tenant_id" = $10 and "flow_session_answers"."livemode" = $11 and "flow_session_answers"."session_id" = $12)
      returning 1
    ), "viewed_landed" as (
      insert into flow_session_marks (session_id, mark, created_at) select $13::text, $14::text, $15::timestamptz
      on conflict do nothing returning 1
    ), "viewed_bumped" as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, "views")
      select $16, $17, $18, $19, $20::date, $21,
        $22, $23, $24::smallint, 1
      from "viewed_landed"
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set "views" = flow_stats_daily."views" + 1
      returning 1
    ), "landed" as (
      insert into flow_session_marks (session_id, mark, created_at) select $25::text, $26::text, $27::timestamptz
      on conflict do nothing returning 1
    ), "bumped" as (
      insert into flow_stats_daily (tenant_id, livemode, flow_id, flow_version_id, day, step_id, experiment_id, arm, shard, "qualified")
      select $28, $29, $30, $31, coalesce((select (created_at at time zone 'UTC')::date from flow_session_marks where session_id = $32::text and mark = $33), $34::date), $35,
        $36, $37, $38::smallint, 1
      from "landed"
      on conflict (flow_id, day, flow_version_id, step_id, experiment_id, arm, shard) do update set "qualified" = flow_stats_daily."qualified" + 1
      returning 1
    )
    select (select count(*) from closed)::int as closed, (select count(*) from released)::int as released, (select count(*) from landed)::int as landed
  `,
  /** The stored response of the Idempotency-Key. */
  completeIdempotency: `update "idempotency_keys" set "state" = $1, "lease_until" = $2, "response_status" = $3, "response_body" = $4, "resource_id" = $5 where "idempotency_keys"."id" = $6`,
  commit: `commit`,
} as const;

export type StatementId = keyof typeof STATEMENTS;

/** The requests of one run, as the bench's patients send them. */
export const RUN_REQUESTS = ['session', 'health', 'consent', 'contact', 'submit'] as const;
export type RunRequest = (typeof RUN_REQUESTS)[number];

/**
 * Per request, the statements in the order sent. `begin` … `commit` is one transaction; every statement
 * outside one commits on its own.
 */
export const RUN: Record<RunRequest, readonly StatementId[]> = {
  session: ['createSession'],
  health: ['holdStep'],
  consent: ['holdStep'],
  contact: ['heldSteps', 'holdStep'],
  submit: [
    'begin',
    'claimIdempotency',
    'sessionLocked',
    'heldSteps',
    'patientByEmail',
    'insertPatient',
    'insertSubmission',
    'closeSession',
    'completeIdempotency',
    'commit',
  ],
};

/** Whitespace folded, for comparing texts. */
export const folded = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Statements per run and transactions per run (each statement outside begin … commit is its own). */
export function runShape(run: Record<RunRequest, readonly string[]> = RUN): { statements: number; commits: number } {
  let statements = 0;
  let commits = 0;
  for (const ids of Object.values(run)) {
    let inTx = false;
    for (const id of ids) {
      statements++;
      if (id === 'begin') inTx = true;
      else if (id === 'commit') {
        inTx = false;
        commits++;
      } else if (!inTx) commits++;
    }
  }
  return { statements, commits };
}
