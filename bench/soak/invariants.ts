import type pg from 'pg';
import { log } from '../lib';
import type { Tenant } from '../scenarios/orders';
import type { Consumer, RateProbe, Receipt, Tally } from './load';

/** What the clients were told succeeded: the writes that must be there at the end. */
export interface Acknowledged {
  orders: string[];
  approvals: { id: string; status: string }[];
  submissions: string[];
  beacons: number;
}

export interface Invariant {
  name: string;
  expected: string;
  actual: string;
  pass: boolean;
}

interface Inputs {
  sql: pg.Client;
  tenant: Tenant;
  flowsTenantId: string;
  ack: Acknowledged;
  receipts: Receipt[];
  consumers: Consumer[];
  probes: { label: string; probe: RateProbe; perProcess: boolean }[];
  limit: number;
  tally: Tally;
}

const SETTLE_MS = Number(process.env.SOAK_SETTLE_SECONDS ?? 90) * 1000;
// A claim lapses at its lease, or IDEMPOTENCY_LEASE_MS (60 s) after it was made (server/domain/developer/idempotency.ts).
const BLOCKING_KEYS = `select count(*) as n from idempotency_keys where state = 'in_flight' and coalesce(lease_until, created_at + interval '60 seconds') > now()`;
const num = async (sql: pg.Client, text: string, values: unknown[] = []) => Number((await sql.query<{ n: string }>(text, values)).rows[0].n);
const zero = (name: string, actual: number, detail = ''): Invariant => ({ name, expected: '0', actual: `${actual}${detail ? ` (${detail})` : ''}`, pass: actual === 0 });

/** Waits (bounded) for the outbox to empty of deliveries and dispatches and for each stream to reach the log's end. */
async function settle({ sql, tenant, consumers }: Inputs) {
  const until = Date.now() + SETTLE_MS;
  for (;;) {
    const pending = await num(sql, `select count(*) as n from jobs where status = 'pending' and kind <> 'order.sync' and tenant_id = $1`, [tenant.tenantId]);
    const last = (await sql.query<{ id: string | null }>(`select max(id) as id from events where tenant_id = $1 and livemode = false`, [tenant.tenantId])).rows[0].id;
    const behind = consumers.filter((c) => last && c.ids.at(-1) !== last).length;
    // A request cut by a kill -9 leaves its claim until the lease lapses; then a retry may take the key again.
    const blocking = await num(sql, BLOCKING_KEYS);
    if ((pending === 0 && behind === 0 && blocking === 0) || Date.now() > until) {
      if (pending || behind || blocking) log(`soak: settle time over with ${pending} jobs pending, ${behind} streams behind, ${blocking} keys in flight`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function checkInvariants(i: Inputs): Promise<Invariant[]> {
  await settle(i);
  const { sql, tenant, ack } = i;
  const out: Invariant[] = [];

  // Acknowledged writes: every order the client was answered 201 for, every approval, every flow submission.
  const ordersFound = await num(sql, `select count(*) as n from orders where id = any($1)`, [ack.orders]);
  const approvalsLost = await num(sql, `select count(*) as n from orders where id = any($1) and status in ('draft', 'pending_approval')`, [ack.approvals.map((a) => a.id)]);
  const submissionsFound = await num(sql, `select count(*) as n from intake_submissions where id = any($1)`, [ack.submissions]);
  const lost = ack.orders.length - ordersFound + approvalsLost + (ack.submissions.length - submissionsFound);
  out.push(zero('acknowledged writes lost', lost, `${ack.orders.length} orders, ${ack.approvals.length} approvals, ${ack.submissions.length} submissions checked`));

  const twiceBook = await num(
    sql,
    `select count(*) as n from (select payload->>'orderId' from simulated_pharmacy_orders where connection_id = any($1) group by 1 having count(*) > 1) t`,
    [tenant.connectionIds],
  );
  const twiceAck = await num(sql, `select count(*) as n from (select order_id, round from order_dispatches where tenant_id = $1 and status = 'acknowledged' group by 1, 2 having count(*) > 1) t`, [tenant.tenantId]);
  const bookRows = await num(sql, `select count(*) as n from simulated_pharmacy_orders where connection_id = any($1)`, [tenant.connectionIds]);
  out.push(zero('orders dispatched twice', twiceBook + twiceAck, `${bookRows} orders in the pharmacies' book; twice there ${twiceBook}, acknowledged twice ${twiceAck}`));

  const dupSubmissions = await num(
    sql,
    `select count(*) as n from (select flow_session_id from intake_submissions where tenant_id = $1 and flow_session_id is not null group by 1 having count(*) > 1) t`,
    [i.flowsTenantId],
  );
  out.push(zero('submissions duplicated', dupSubmissions));
  const lapsed = await num(sql, `select count(*) as n from idempotency_keys where state = 'in_flight'`) - (await num(sql, BLOCKING_KEYS));
  out.push(zero('idempotency keys left in flight', await num(sql, BLOCKING_KEYS), `${lapsed} claims of requests cut by a kill, lapsed: a retry takes the key`));

  // Events: an approved order has its order.routed (the inline dispatch announces no order.submitted); a flow
  // submission its intake.submission.created.
  const approvedIds = ack.approvals.map((a) => a.id);
  const noRoutedEvent = await num(
    sql,
    `select count(*) as n from unnest($1::text[]) o(id) where not exists (select 1 from events e where e.tenant_id = $2 and e.type = 'order.routed' and e.data->>'orderId' = o.id)`,
    [approvedIds, tenant.tenantId],
  );
  const noSubmissionEvent = await num(
    sql,
    `select count(*) as n from unnest($1::text[]) s(id) where not exists (select 1 from events e where e.tenant_id = $2 and e.type = 'intake.submission.created' and e.data->>'submissionId' = s.id)`,
    [ack.submissions, i.flowsTenantId],
  );
  out.push(zero('events missing from the log', noRoutedEvent + noSubmissionEvent, `${approvedIds.length} order.routed, ${ack.submissions.length} intake.submission.created expected`));

  // Webhooks: each subscribed event received at least once unless its delivery is dead; nothing received after dead.
  const deliveries = (
    await sql.query<{ event_id: string; status: string; last_attempt_at: Date | null }>(
      `select d.event_id, d.status, d.last_attempt_at from webhook_deliveries d where d.tenant_id = $1 and d.trigger = 'event'`,
      [tenant.tenantId],
    )
  ).rows;
  // Every subscribed event, from the log, against the receiver's receipts; a delivery that died is allowed (the
  // soak runs with housekeeping off, so every delivery row is still there: bench/soak/processes.ts).
  const subscribedIds = (
    await sql.query<{ id: string }>(`select id from events where tenant_id = $1 and livemode = false and type in ('order.routed', 'order.submitted')`, [tenant.tenantId])
  ).rows.map((r) => r.id);
  const subscribed = subscribedIds.length;
  const received = new Map<string, number[]>();
  for (const r of i.receipts) received.set(r.eventId, [...(received.get(r.eventId) ?? []), r.at]);
  const deadEvents = new Set(deliveries.filter((d) => d.status === 'dead').map((d) => d.event_id));
  const undelivered = subscribedIds.filter((id) => !received.has(id) && !deadEvents.has(id)).length;
  const afterDead = deliveries.filter((d) => d.status === 'dead' && d.last_attempt_at && (received.get(d.event_id) ?? []).some((at) => at > d.last_attempt_at!.getTime() + 1000)).length;
  const dead = deliveries.filter((d) => d.status === 'dead').length;
  out.push(zero('webhook events not delivered (not dead)', undelivered, `${subscribed} events, ${i.receipts.length} receipts, ${dead} dead, ${deliveries.length} deliveries`));
  out.push(zero('webhook deliveries received after dead', afterDead));

  // Event streams: from each consumer's first event on, every event of the scope, once, in order.
  for (const c of i.consumers) {
    const first = c.ids[0];
    const log_ = first ? (await sql.query<{ id: string }>(`select id from events where tenant_id = $1 and livemode = false and id >= $2 order by id`, [tenant.tenantId, first])).rows.map((r) => r.id) : [];
    const got = new Set(c.ids);
    const gaps = log_.filter((id) => !got.has(id)).length;
    const dups = c.ids.length - got.size;
    out.push({
      name: `${c.name}: stream gaps / duplicates`,
      // Duplicates are reported, not failed: an event committed late (its id older than one already sent) is the
      // last one a client received, so Last-Event-ID names it and the newer ones after it come again. At least once.
      expected: '0 gaps, ≥ 1 resume on the other process (duplicates reported)',
      actual: `${gaps} / ${dups} (${c.ids.length} events, ${c.resumes} resumes, ${c.crossResumes} on the other process)`,
      pass: gaps === 0 && log_.length > 0 && c.crossResumes > 0,
    });
  }

  // Rate limit: LIMIT a second (1 s windows) plus a burst of LIMIT per 10 s (server/lib/rate-limit.ts). Over W
  // seconds the windows' edges allow between LIMIT × (W + W/10) and LIMIT × (W + 1 + W/10 + 1); ± 10% beyond.
  for (const { label, probe, perProcess } of i.probes) {
    // The processes may see the requests over a longer span than they were sent in (a loaded machine): the upper
    // bound follows the span from the first request to the last answer.
    const low = i.limit * (probe.seconds + Math.ceil(probe.seconds / 10));
    const span = Math.max(probe.seconds, Math.ceil(probe.spanSeconds));
    const high = i.limit * (span + 1 + Math.ceil(span / 10) + 1);
    const counts = Object.values(probe.accepted);
    const total = counts.reduce((a, b) => a + b, 0);
    const within = (x: number) => x >= 0.9 * low && x <= 1.1 * high;
    const rate = (x: number) => `${(x / probe.seconds).toFixed(1)}/s`;
    const others = Object.entries(probe.otherCauses).map(([k, v]) => `${v}× ${k}`).join(', ');
    out.push({
      name: `rate limit, ${label} (${perProcess ? 'each process on its own' : 'shared by both processes'})`,
      expected: `${low}–${high}${perProcess ? ' per process' : ''} ± 10% (limit ${i.limit}/s + burst; sent over ${probe.seconds} s, answered within ${probe.spanSeconds.toFixed(1)} s)`,
      actual: perProcess
        ? `${counts.join(' + ')} (${counts.map(rate).join(', ')}; refused ${probe.refused}, other ${probe.other}${others ? `: ${others}` : ''})`
        : `${total} (${rate(total)}; refused ${probe.refused}, other ${probe.other}${others ? `: ${others}` : ''})`,
      // A timeout on a loaded machine is reported; an error answer (5xx) fails the probe.
      pass: Object.keys(probe.otherCauses).every((k) => k === 'timeout') && (perProcess ? counts.every(within) : within(total)),
    });
  }

  const failures = [...i.tally.failures.entries()].sort((a, b) => b[1] - a[1]);
  const fiveXX = failures.filter(([k]) => / 5\d\d/.test(k)).reduce((n, [, v]) => n + v, 0);
  out.push({
    name: '5xx answers and network failures (retried)',
    expected: 'reported',
    actual: failures.length ? `${fiveXX} 5xx; ${failures.map(([k, v]) => `${v}× ${k}`).join('; ')}` : 'none',
    pass: true,
  });
  return out;
}
