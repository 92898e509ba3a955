import type { IncomingMessage, ServerResponse } from 'node:http';
import { getTRPCErrorFromUnknown } from '@trpc/server';
import type { Context, RequestState } from '@/server/api/context';
import { appRouter } from '@/server/api/root';
import type { RouteInfo } from '@/server/api/route-table';
import { t } from '@/server/api/trpc';

const createCaller = t.createCallerFactory(appRouter);
type Procedure = (input: unknown) => Promise<unknown>;

/**
 * A /v1 operation with a JSON body, called straight through its tRPC procedure (a `createCaller` per request;
 * issue 35): what trpc-to-openapi's Node handler does for such a request — the body with the path's parameters
 * as input, the procedure's middlewares, input and output validation, the response metadata — without turning
 * the Node request into a web `Request` and `AbortSignal` first, which it does only to hand tRPC a signal that
 * a caller never reads. The procedures stay the one definition of behaviour and of the OpenAPI document; GETs
 * (whose query strings the library coerces) still go through the library.
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
