// The log's label of a failing statement: the verb and every table it writes, never a value.
import { expect, it } from 'vitest';
import { statementLabel } from '@/server/lib/log-error';
it('names the verb and the tables a statement writes, else the first it reads', () => {
  expect(statementLabel('select id from jobs where a for update skip locked')).toBe('select jobs');
  expect(statementLabel('insert into "patients" ("a") values ($1)')).toBe('insert patients');
  expect(statementLabel('with a as (insert into "patient_access_log" values ($1) returning 1) insert into "patients" values ($2)')).toBe('insert patient_access_log, patients');
  expect(statementLabel('insert into x values (1) on conflict (id) do update set a = 1')).toBe('insert x');
  expect(statementLabel('update "orders" set a = 1')).toBe('update orders');
  expect(statementLabel('select * from "flows" join embed_keys')).toBe('select flows');
  expect(statementLabel('begin')).toBe('statement');
});
