import { schemaDef, stopCoercing, unwrapSchema, type SchemaNode } from './dependency-internals';

/**
 * trpc-to-openapi marks the number and boolean fields of every input schema as coercing (so query strings
 * parse), down into nested objects and array items, even for JSON bodies, where "1" for a number must be
 * a 400. This undoes that for body schemas; it runs per request because the handler re-applies coercion
 * before each call. The schema's nodes are found once (walking the tree per request was ≈ 1% of the public
 * runtime's CPU, issue 35); each request only resets their flags.
 */
export function disableBodyCoercion(schema: unknown): void {
  let nodes = bodyNodes.get(schema as object);
  if (!nodes) bodyNodes.set(schema as object, (nodes = collect(schema as SchemaNode, [])));
  for (const node of nodes) stopCoercing(node);
}
const bodyNodes = new WeakMap<object, SchemaNode[]>();

/** The schema's node and, down through objects' fields and arrays' items, every node below it (wrappers skipped). */
function collect(schema: SchemaNode, into: SchemaNode[]): SchemaNode[] {
  const node = unwrapSchema(schema);
  if (!node) return into;
  into.push(node);
  const def = schemaDef(node);
  if (def?.type === 'object') for (const field of Object.values(def.shape ?? {})) collect(field, into);
  if (def?.type === 'array' && def.element) collect(def.element, into);
  return into;
}
