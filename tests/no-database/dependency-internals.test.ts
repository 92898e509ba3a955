import { describe, expect, it } from 'vitest';
import { initTRPC } from '@trpc/server';
import * as z from '@/server/lib/zod';
import { procedureInputs, routerProcedures, schemaDef, stopCoercing, unwrapSchema, wrapParse, type SchemaNode } from '@/server/api/dependency-internals';
import { appRouter } from '@/server/api/root';
import { buildRouteTable } from '@/server/api/route-table';

/*
 * Issue 51, item 1: the structure of zod, tRPC and trpc-to-openapi that the server reads without a public API
 * lives in server/api/dependency-internals.ts. Each test builds the real thing and checks the shape read; a
 * release that moves it fails here, naming the module, before the API can misbehave silently.
 */

const MODULE = 'server/api/dependency-internals.ts';
const moved = (what: string) => `${MODULE} reads ${what}, and this release of the dependency no longer has it there: update the module`;

describe(MODULE, () => {
  it("reads a zod schema's definition: type, shape, innerType, element", () => {
    const schema = z.object({ name: z.string().optional(), tags: z.array(z.enum(['a', 'b'])), age: z.number().nullable() });
    const def = schemaDef(schema as SchemaNode);
    expect(def?.type, moved('def.type')).toBe('object');
    expect(Object.keys(def?.shape ?? {}), moved('def.shape')).toEqual(['name', 'tags', 'age']);
    expect(schemaDef(def?.shape?.name)?.type, moved('def.type of a wrapper')).toBe('optional');
    expect(schemaDef(unwrapSchema(def?.shape?.name))?.type, moved('def.innerType')).toBe('string');
    expect(schemaDef(unwrapSchema(def?.shape?.age))?.type, moved('def.innerType of nullable')).toBe('number');
    expect(schemaDef(schemaDef(def?.shape?.tags)?.element)?.type, moved('def.element')).toBe('enum');
    expect(schemaDef(unwrapSchema(z.string().default('x') as SchemaNode))?.type, moved('def.innerType of default')).toBe('string');
  });

  it("turns off a schema's coercion, as trpc-to-openapi turns it on", () => {
    const schema = z.coerce.number();
    expect(schemaDef(schema as SchemaNode)?.coerce, moved('def.coerce')).toBe(true);
    expect(schema.parse('12')).toBe(12);
    stopCoercing(schema as SchemaNode);
    expect(schema.safeParse('12').success, moved('def.coerce (no longer obeyed)')).toBe(false);
    expect(schema.parse(12)).toBe(12);
  });

  it("wraps a schema's parse step, for top-level and nested parses", () => {
    const inner = z.object({ n: z.number() });
    const seen: unknown[] = [];
    wrapParse(inner, (run) => (payload, ctx) => {
      seen.push(payload.value);
      return run(payload, ctx);
    });
    expect(inner.parse({ n: 1 })).toEqual({ n: 1 });
    expect(z.object({ child: inner }).parse({ child: { n: 2 } })).toEqual({ child: { n: 2 } });
    expect(seen, moved('_zod.run')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("reads a tRPC router's procedures and a procedure's input parsers", () => {
    const t = initTRPC.create();
    const input = z.object({ id: z.string() });
    const router = t.router({ thing: t.router({ get: t.procedure.input(input).query(() => 1) }) });
    const procedures = routerProcedures(router);
    expect(Object.keys(procedures), moved('router._def.procedures')).toEqual(['thing.get']);
    expect(procedureInputs(procedures['thing.get']), moved('procedure._def.inputs')).toEqual([input]);
  });

  it("gives trpc-to-openapi's route walk the app's procedures with their inputs", () => {
    const table = buildRouteTable(appRouter);
    expect(table.routes.length).toBeGreaterThan(50);
    const withInputs = table.routes.filter((r) => r.inputs.length > 0);
    expect(withInputs.length, moved("the procedures trpc-to-openapi's forEachOpenApiProcedure hands over")).toBeGreaterThan(50);
    for (const r of withInputs) expect(schemaDef(r.inputs[0] as SchemaNode)?.type, `${r.method} ${r.path}: ${moved('def.type')}`).toBeTypeOf('string');
  });
});
