-- Every appended event wakes the SSE streams of its tenant and mode (channel fr_events, payload
-- "<tenant>:<live|sandbox>"); as a trigger it costs no extra statement per event, and NOTIFY still
-- waits for the inserting transaction to commit.
CREATE OR REPLACE FUNCTION fr_notify_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('fr_events', NEW.tenant_id || ':' || CASE WHEN NEW.livemode THEN 'live' ELSE 'sandbox' END);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION fr_notify_event();
