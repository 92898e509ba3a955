import type { IncomingMessage, ServerResponse } from 'node:http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { Context, RequestState } from '@/server/api/context';
import { schemaDef, unwrapSchema, type SchemaNode } from '@/server/api/dependency-internals';
import { appRouter } from '@/server/api/root';
import type { RouteInfo } from '@/server/api/route-table';
import { t } from '@/server/api/trpc';

const createCaller = t.createCallerFactory(appRouter);
type Procedure = (input: unknown) => Promise<unknown>;

/**
 * A /v1 operation called straight through its tRPC procedure (a `createCaller` per request; issue 35): what
 * trpc-to-openapi's Node handler does for it — the body (or the query string) with the path's parameters as
 * input, the procedure's middlewares, input and output validation, the response metadata — without turning
 * the Node request into a web `Request` and `AbortSignal` first, which it does only to hand tRPC a signal that
 * a caller never reads. The procedures stay the one definition of behaviour and of the OpenAPI document. Every
 * operation with a body comes here; a GET only when its input is text (`directQuery`): the others' query
 * strings are coerced by the library, whose rules this does not copy.
 *
 * The app has already matched the route, read, size-checked and parsed the body (readJsonBody), and put the
 * envelope swap on `res.end`; an error is handed over exactly as the library hands it (`state.error`, then a
 * JSON body that the swap replaces).
 */
export async function callProcedure(req: IncomingMessage, res: ServerResponse, state: RequestState, call: { route: RouteInfo; apiPath: string; body: unknown }, createContext: (o: { req: IncomingMessage }) => Context): Promise<void> {
  const { route } = call;
  // Raw, as the library passes them: a path parameter is never percent-decoded.
  const pathInput = route.regex.exec(call.apiPath)?.groups ?? {};
  const input = { ...(call.body as Record<string, unknown>), ...pathInput };
  let status: number;
  let payload: unknown;
  try {
    const ctx = createContext({ req });
    const procedure = route.procedurePath.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], createCaller(ctx)) as Procedure;
    payload = await procedure(input);
    status = state.status ?? route.meta.successStatus ?? 200;
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    state.error = error;
    // Replaced by the envelope (app.ts swaps it in at `res.end`), as when the library answered.
    status = 500;
    payload = { message: error.message };
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  for (const [key, value] of Object.entries(state.headers)) if (value !== undefined) res.setHeader(key, value);
  res.end(JSON.stringify(payload));
}

const TEXT = new Set(['string', 'enum', 'literal']);
const typeOf = (node: SchemaNode | undefined) => schemaDef(unwrapSchema(node))?.type ?? '';

/** Text, or an object of text all the way down: nothing the library would make coerce. */
function textOnly(node: SchemaNode | undefined): boolean {
  const def = schemaDef(unwrapSchema(node));
  if (!def?.type) return false;
  if (TEXT.has(def.type)) return true;
  return def.type === 'object' && Object.values(def.shape ?? {}).every(textOnly);
}

/** The input's fields are text, or lists of text (the library turns a single value of those into a list: `arrays`). */
function queryFields(input: SchemaNode, arrays: Set<string>): boolean {
  const def = schemaDef(unwrapSchema(input));
  if (def?.type !== 'object') return false;
  return Object.entries(def.shape ?? {}).every(([name, field]) => {
    const own = schemaDef(field);
    // Exactly the lists the library wraps: a list, or an optional list.
    const list = own?.type === 'array' ? own : own?.type === 'optional' && schemaDef(own.innerType)?.type === 'array' ? schemaDef(own.innerType) : undefined;
    if (list) {
      arrays.add(name);
      return TEXT.has(typeOf(list.element));
    }
    return textOnly(field);
  });
}

const queryRoutes = new WeakMap<RouteInfo, { arrays: Set<string> } | null>();
/**
 * A GET whose input holds only text (strings, enums, literals, lists of them) can be called directly: the library
 * would coerce nothing in it (it makes only numbers, booleans, bigints and dates coerce). Anything else (a page
 * size, a flag) stays with the library. Null: not such a route.
 */
export function directQuery(route: RouteInfo): { arrays: Set<string> } | null {
  let known = queryRoutes.get(route);
  if (known === undefined) {
    const arrays = new Set<string>();
    known = route.inputs.length > 0 && route.inputs.every((input) => queryFields(input as SchemaNode, arrays)) ? { arrays } : null;
    queryRoutes.set(route, known);
  }
  return known;
}

/** The query string as the library reads it: a repeated name is a list, a single one a value; list fields always lists. */
export function queryInput(search: URLSearchParams, arrays: Set<string>): Record<string, unknown> {
  const all: Record<string, string[]> = {};
  search.forEach((value, key) => (all[key] ??= []).push(value));
  const out: Record<string, unknown> = {};
  for (const [key, values] of Object.entries(all)) out[key] = values.length === 1 && !arrays.has(key) ? values[0] : values;
  return out;
}
