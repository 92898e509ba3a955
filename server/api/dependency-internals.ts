import type { AnyRouter } from '@trpc/server';
import type * as z from '@/server/lib/zod';

/**
 * Every read of a dependency's structure that its public API does not offer, in one place (issue 51, item 1),
 * so that an upgrade of zod, tRPC or trpc-to-openapi that changes one breaks here, loudly, and nowhere else:
 * `tests/no-database/dependency-internals.test.ts` builds real schemas and a real router and fails naming this module
 * when a shape it reads has moved.
 *
 * What zod offers publicly is used as such: a classic schema's `def` (its definition: `type`, an object's
 * `shape`, a wrapper's `innerType`, an array's `element`) is a documented property of zod 4's schemas. Two
 * things have no public form: a definition's `coerce` flag, which trpc-to-openapi sets on every input (undone
 * for JSON bodies, server/api/strict-body.ts), and a schema's `_zod.run`, the parse step (wrapped to check a
 * cached object once, server/api/checked-once.ts). tRPC exposes a router's procedures and a procedure's input
 * parsers only under `_def`.
 */

/** The part of a zod schema's definition the server reads. */
export interface SchemaDef {
  type?: string;
  shape?: Record<string, SchemaNode>;
  innerType?: SchemaNode;
  element?: SchemaNode;
  coerce?: boolean;
}
export interface SchemaNode {
  def?: SchemaDef;
}

// Wrappers that change nothing about the value's shape: an optional field is read as what it wraps.
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault']);

export const schemaDef = (node: SchemaNode | undefined): SchemaDef | undefined => node?.def;

/** The schema under its optional, nullable and default wrappers. */
export function unwrapSchema(node: SchemaNode | undefined): SchemaNode | undefined {
  let cur = node;
  while (cur?.def?.type && WRAPPERS.has(cur.def.type)) cur = cur.def.innerType;
  return cur;
}

/** Turns off the `coerce` flag trpc-to-openapi put on a number, boolean, bigint or date schema. */
export function stopCoercing(node: SchemaNode): void {
  if (node.def?.coerce) node.def.coerce = false;
}

type ParseStep = z.core.$ZodType['_zod']['run'];

/** Puts `wrap` around the schema's parse step (zod calls `_zod.run` for every parse, nested ones included). */
export function wrapParse(schema: z.ZodType, wrap: (run: ParseStep) => ParseStep): void {
  schema._zod.run = wrap(schema._zod.run);
}

/** The router's procedures by path (tRPC keeps them on `_def`). */
export const routerProcedures = (router: AnyRouter): Record<string, unknown> => router._def.procedures as Record<string, unknown>;

/** A procedure's input parsers, in the order `.input()` added them (tRPC keeps them on `_def`). */
export const procedureInputs = (procedure: unknown): unknown[] => (procedure as { _def: { inputs: unknown[] } })._def.inputs;
