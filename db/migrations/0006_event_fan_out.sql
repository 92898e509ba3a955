-- An id as server/lib/ids.ts mints them (typeid: "<prefix>_" + a UUIDv7 in 26 Crockford base32
-- characters), for rows the database writes itself. The timestamp is the database's clock.
CREATE OR REPLACE FUNCTION fr_typeid(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  b bytea := uuid_send(gen_random_uuid());
  suffix text := '';
  v int;
  k int;
BEGIN
  FOR i IN 0..5 LOOP
    b := set_byte(b, i, ((ms >> (8 * (5 - i))) & 255)::int);
  END LOOP;
  -- Version 7; gen_random_uuid already set the variant bits.
  b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
  -- 26 groups of 5 bits over 130 bits, the first two of them zero. get_bit counts from each byte's low bit.
  FOR c IN 0..25 LOOP
    v := 0;
    FOR j IN 0..4 LOOP
      k := c * 5 + j - 2;
      v := v * 2 + CASE WHEN k < 0 THEN 0 ELSE get_bit(b, (k / 8) * 8 + 7 - k % 8) END;
    END LOOP;
    suffix := suffix || substr(alphabet, v + 1, 1);
  END LOOP;
  RETURN prefix || '_' || suffix;
END;
$$;
--> statement-breakpoint
-- Every appended event gets one pending delivery and one `webhook.deliver` job per enabled endpoint of its
-- tenant and mode subscribed to its type (an empty list covers every type), in the inserting statement:
-- the fan-out commits with the event and costs the writer no read of the endpoints. Workers are woken
-- (channel fr_jobs) when the transaction commits. Prefixes, job kind and channel are server/lib/ids.ts's
-- 'delivery' and 'job', DELIVERY_JOB and JOBS_CHANNEL (tests/event-fan-out.test.ts holds them equal).
CREATE OR REPLACE FUNCTION fr_fan_out_event() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  fanned int;
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, tenant_id, livemode, endpoint_id, event_id, event_type, trigger, status, created_at, next_attempt_at)
    SELECT fr_typeid('whd'), e.tenant_id, e.livemode, e.id, NEW.id, NEW.type, 'event', 'pending', NEW.created_at, NEW.created_at
    FROM webhook_endpoints e
    WHERE e.tenant_id = NEW.tenant_id AND e.livemode = NEW.livemode AND e.status = 'enabled'
      AND (e.events = '[]'::jsonb OR e.events ? NEW.type)
    ORDER BY e.id
    RETURNING id, endpoint_id
  ), j AS (
    INSERT INTO jobs (id, kind, tenant_id, livemode, payload, run_at, created_at, updated_at)
    SELECT fr_typeid('job'), 'webhook.deliver', NEW.tenant_id, NEW.livemode, jsonb_build_object('deliveryId', d.id, 'endpointId', d.endpoint_id), NEW.created_at, NEW.created_at, NEW.created_at
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
CREATE TRIGGER events_fan_out AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION fr_fan_out_event();
