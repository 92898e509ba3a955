type ZodLike = {
  _zod?: { def?: { type?: string; shape?: Record<string, ZodLike>; innerType?: ZodLike; element?: ZodLike; coerce?: boolean } };
  _def?: { coerce?: boolean };
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault']);

/**
 * trpc-to-openapi marks the number and boolean fields of every input schema as coercing (so query strings
 * parse), down into nested objects and array items, even for JSON bodies, where "1" for a number must be
 * a 400. This undoes that for body schemas; it runs per request because the handler re-applies coercion
 * before each call.
 */
export function disableBodyCoercion(schema: unknown): void {
  const node = unwrap(schema as ZodLike);
  if (!node) return;
  if (node._def?.coerce) node._def.coerce = false;
  const def = node._zod?.def;
  if (def?.type === 'object') for (const field of Object.values(def.shape ?? {})) disableBodyCoercion(field);
  if (def?.type === 'array') disableBodyCoercion(def.element);
}

function unwrap(t: ZodLike | undefined): ZodLike | undefined {
  let cur = t;
  while (cur?._zod?.def?.type && WRAPPERS.has(cur._zod.def.type)) cur = cur._zod.def.innerType;
  return cur;
}
