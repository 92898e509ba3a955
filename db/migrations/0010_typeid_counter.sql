-- Replaces 0006's fr_typeid: 26 of the random bits after the version become a counter (RFC 9562 §6.2,
-- method 1) from one sequence, so ids the database mints one after another sort in the order they were
-- made, also within one millisecond (a webhook's delivery history lists newest first by id; PGlite's clock
-- has no sub-millisecond part to use instead). The counter wraps every 2^26 ids, so at most one pair in
-- that many, minted in the same millisecond across the wrap, sorts the other way. The format is unchanged:
-- prefix + "_" + a UUIDv7 in 26 Crockford base32 characters.
CREATE SEQUENCE IF NOT EXISTS fr_typeid_counter;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION fr_typeid(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789abcdefghjkmnpqrstvwxyz';
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  n bigint := nextval('fr_typeid_counter');
  b bytea := uuid_send(gen_random_uuid());
  suffix text := '';
  v int;
  k int;
BEGIN
  FOR i IN 0..5 LOOP
    b := set_byte(b, i, ((ms >> (8 * (5 - i))) & 255)::int);
  END LOOP;
  -- Version 7 and the counter's top 4 bits, its next 8, the variant with its next 6, and its low 8.
  b := set_byte(b, 6, (112 | ((n >> 22) & 15))::int);
  b := set_byte(b, 7, ((n >> 14) & 255)::int);
  b := set_byte(b, 8, (128 | ((n >> 8) & 63))::int);
  b := set_byte(b, 9, (n & 255)::int);
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
