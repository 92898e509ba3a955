import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Resource } from '@medplum/fhirtypes';
import type { Context, RequestState, Services } from '@/server/api/context';
import { toEnvelope } from '@/server/api/envelope';
import { logFailedRequest } from '@/server/api/failure-log';
import { FHIR_OPERATIONS, type FhirOperation } from '@/server/api/fhir-operations';
import { limitedPrincipal } from '@/server/api/middlewares/authenticate';
import { API_VERSION } from '@/server/api/openapi';
import { tenantPrincipalWithScope } from '@/server/api/middlewares/authorize';
import { searchset, type SearchResult } from '@/server/domain/fhir/bundle';
import { capabilityStatement } from '@/server/domain/fhir/capability';
import { patientEverything } from '@/server/domain/fhir/everything';
import { importQuestionnaire } from '@/server/domain/fhir/import';
import { operationOutcome } from '@/server/domain/fhir/operation-outcome';
import { readMedicationRequest, readPatient, readPractitioner, readQuestionnaire, readQuestionnaireResponse, type FhirCaller } from '@/server/domain/fhir/reads';
import { searchMedicationRequests, searchPatients, searchQuestionnaireResponses } from '@/server/domain/fhir/search';
import { parseSearch, type SearchName } from '@/server/domain/fhir/search-params';
import { AppError } from '@/server/lib/errors';
import { readJsonBody } from './body';
import { FHIR_CONTENT_TYPE, requireJsonFormat } from './fhir-format';

interface Answer {
  status?: number;
  resource: Resource;
  headers?: Record<string, string>;
}
interface Call {
  caller: FhirCaller;
  id: string;
  search: URLSearchParams;
  req: IncomingMessage;
  services: Services;
  base: string;
  path: string;
}

type Parsed = ReturnType<typeof parseSearch>;
/** A search (or $everything): its parameters parsed, the domain's page of results as a searchset Bundle. */
const found = (search: SearchName, run: (call: Call, criteria: Parsed['criteria'], page: Parsed['page']) => Promise<SearchResult>) => async (call: Call): Promise<Answer> => {
  const { criteria, page } = parseSearch(search, call.search);
  return { resource: searchset(call.base, call.path, call.search, page, await run(call, criteria, page)) };
};

/** What each operation of FHIR_OPERATIONS does: one call into the FHIR domain. */
const HANDLERS: Record<string, (call: Call) => Promise<Answer>> = {
  fhirCapabilities: async (call) => ({ resource: capabilityStatement(call.base, API_VERSION) }),
  fhirSearchPatients: found('Patient', (call, criteria, page) => searchPatients(call.caller, criteria, page)),
  fhirReadPatient: async (call) => ({ resource: await readPatient(call.caller, call.id) }),
  fhirPatientEverything: found('everything', (call, _criteria, page) => patientEverything(call.caller, call.id, page)),
  fhirReadPractitioner: async (call) => ({ resource: await readPractitioner(call.caller, call.id) }),
  fhirReadQuestionnaire: async (call) => ({ resource: await readQuestionnaire(call.caller, call.id) }),
  fhirImportQuestionnaire: async (call) => {
    const body = await readJsonBody(call.req, call.services.config.MAX_BODY_BYTES);
    const { resource, created } = await importQuestionnaire(call.caller, body.json);
    return { status: created ? 201 : 200, resource, headers: { Location: `${call.base}/Questionnaire/${resource.id}` } };
  },
  fhirSearchQuestionnaireResponses: found('QuestionnaireResponse', (call, criteria, page) => searchQuestionnaireResponses(call.caller, criteria, page)),
  fhirReadQuestionnaireResponse: async (call) => ({ resource: await readQuestionnaireResponse(call.caller, call.id) }),
  fhirSearchMedicationRequests: found('MedicationRequest', (call, criteria, page) => searchMedicationRequests(call.caller, criteria, page)),
  fhirReadMedicationRequest: async (call) => ({ resource: await readMedicationRequest(call.caller, call.id) }),
};

const ROUTES = FHIR_OPERATIONS.map((op) => ({
  op,
  regex: new RegExp(`^${op.path.replace(/\$/g, '\\$').replace('{id}', '(?<id>[^/]+)')}$`),
}));

function match(method: string, apiPath: string): { op: FhirOperation; id: string } {
  const matched = ROUTES.map((r) => ({ ...r, m: r.regex.exec(apiPath) })).filter((r) => r.m);
  const own = matched.find((r) => r.op.method === method);
  if (own) return { op: own.op, id: own.m!.groups?.id ?? '' };
  if (matched.length) {
    const allow = [...new Set(matched.map((r) => r.op.method))].join(', ');
    throw new AppError('validation_error', 'method_not_allowed', 405, `${method} is not allowed on /v1${apiPath}.`, undefined, { Allow: allow });
  }
  throw new AppError('not_found', 'route_not_found', 404, `This FHIR server has no ${method} /v1${apiPath.slice(0, 80)}; GET /v1/fhir/metadata lists what it serves.`);
}

/**
 * /v1/fhir/*: FHIR R4 (DESIGN decision 42; server/api/fhir-operations.ts says why a handler of its own). The
 * route, the format, then the credential, its rate limit and scope exactly as the REST procedures check them,
 * then one domain call; success and failure alike are `application/fhir+json`, a failure an OperationOutcome
 * with the REST envelope's status, code and message and the request's `X-Request-Id`.
 */
export async function serveFhir(req: IncomingMessage, res: ServerResponse, services: Services, state: RequestState, apiPath: string, search: URLSearchParams): Promise<void> {
  const base = `${services.auth.publicUrl}/v1/fhir`;
  try {
    const { op, id } = match(req.method ?? 'GET', apiPath);
    state.routeTemplate = op.path;
    requireJsonFormat(req, search);
    const ctx = { services, req, state } as Context;
    const principal = op.scope === null ? null : tenantPrincipalWithScope(await limitedPrincipal(ctx), { scope: op.scope });
    const caller: FhirCaller = { db: services.database.db, principal: principal!, requestId: state.requestId, publicUrl: services.auth.publicUrl };
    const answer = await HANDLERS[op.operationId]!({ caller, id: decodeURIComponent(id), search, req, services, base, path: apiPath.slice(5) });
    send(res, answer.status ?? 200, { ...state.headers, ...answer.headers }, answer.resource, search);
  } catch (thrown) {
    if (res.headersSent) return void res.destroy();
    sendFhirError(res, thrown, state, search);
  }
}

/** Whether a request's path is the FHIR API's: its errors, even those met before routing (a malformed URL), are OperationOutcomes. */
export const isFhirRequest = (pathname: string) => pathname === '/v1/fhir' || pathname.startsWith('/v1/fhir/');

/** Anything thrown as an OperationOutcome: the REST envelope's status, headers, code and message, with its details as issues. */
export function sendFhirError(res: ServerResponse, thrown: unknown, state: RequestState, search = new URLSearchParams()) {
  const envelope = toEnvelope(thrown, state.requestId);
  logFailedRequest(envelope, thrown, { requestId: state.requestId, method: state.method, path: state.path });
  const { error } = envelope.body;
  const problems = (error.details ?? []).map((d) => ({ message: d.message, expression: d.param }));
  send(res, envelope.status, { ...state.headers, ...envelope.headers }, operationOutcome({ ...error, type: error.type as never, status: envelope.status }, problems), search);
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, resource: Resource, search: URLSearchParams) {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v);
  res.setHeader('Content-Type', FHIR_CONTENT_TYPE);
  res.end(search.get('_pretty') === 'true' ? JSON.stringify(resource, null, 2) : JSON.stringify(resource));
}
