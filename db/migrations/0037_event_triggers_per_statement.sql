-- The event log's two triggers run once per inserting statement instead of once per row (issue 55, item 2): a
-- statement that appends several events (a session created under an experiment: `flow.viewed` and
-- `experiment.exposed`; a submission's events) ran both trigger functions, each with its own queries, for every
-- row. The new rows are the statement's transition table `new_events`; what the triggers do is unchanged:
-- migration 0009's NOTIFY of the scopes with an open event stream, and 0006's delivery and job per enabled,
-- subscribed endpoint with one wake-up of the workers.
DROP TRIGGER IF EXISTS events_notify ON events;
--> statement-breakpoint
DROP TRIGGER IF EXISTS events_fan_out ON events;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fr_notify_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fr_events', s.id)
  FROM event_streams s
  WHERE s.until > clock_timestamp()
    AND s.id IN (SELECT n.tenant_id || ':' || CASE WHEN n.livemode THEN 'live' ELSE 'sandbox' END FROM new_events n);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fr_fan_out_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fanned int;
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, tenant_id, livemode, endpoint_id, event_id, event_type, trigger, status, created_at, next_attempt_at)
    SELECT fr_typeid('whd'), e.tenant_id, e.livemode, e.id, n.id, n.type, 'event', 'pending', n.created_at, n.created_at
    FROM new_events n
    JOIN webhook_endpoints e ON e.tenant_id = n.tenant_id AND e.livemode = n.livemode AND e.status = 'enabled'
      AND (e.events = '[]'::jsonb OR e.events ? n.type)
    ORDER BY n.id, e.id
    RETURNING id, tenant_id, livemode, endpoint_id, created_at
  ), j AS (
    INSERT INTO jobs (id, kind, tenant_id, livemode, payload, run_at, created_at, updated_at)
    SELECT fr_typeid('job'), 'webhook.deliver', d.tenant_id, d.livemode, jsonb_build_object('deliveryId', d.id, 'endpointId', d.endpoint_id), d.created_at, d.created_at, d.created_at
    FROM d
    RETURNING 1
  )
  SELECT count(*) INTO fanned FROM j;
  IF fanned > 0 THEN
    PERFORM pg_notify('fr_jobs', '');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION fr_notify_events();
--> statement-breakpoint
CREATE TRIGGER events_fan_out AFTER INSERT ON events REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION fr_fan_out_events();
--> statement-breakpoint
DROP FUNCTION IF EXISTS fr_notify_event();
--> statement-breakpoint
DROP FUNCTION IF EXISTS fr_fan_out_event();
