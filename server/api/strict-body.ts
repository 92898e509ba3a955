type ZodLike = { _zod?: { def?: { type?: string; shape?: Record<string, ZodLike>; innerType?: ZodLike; coerce?: boolean } }; _def?: { coerce?: boolean } };

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault']);

/**
 * trpc-to-openapi marks the top-level number and boolean fields of every input schema as coercing (so
 * query strings parse), even for JSON bodies, where "1" for a number must be a 400. This undoes that for
 * body schemas; it runs per request because the handler re-applies coercion before each call.
 */
export function disableBodyCoercion(schema: unknown): void {
  const shape = unwrap(schema as ZodLike)?._zod?.def?.shape;
  if (!shape) return;
  for (const field of Object.values(shape)) {
    const inner = unwrap(field);
    if (inner?._def?.coerce) inner._def.coerce = false;
    if (inner?._zod?.def?.type === 'object') disableBodyCoercion(inner);
  }
}

function unwrap(t: ZodLike | undefined): ZodLike | undefined {
  let cur = t;
  while (cur?._zod?.def?.type && WRAPPERS.has(cur._zod.def.type)) cur = cur._zod.def.innerType;
  return cur;
}
