import { FHIR_OPERATIONS, type FhirOperation } from './fhir-operations';

type Json = Record<string, any>;
const FHIR_JSON = 'application/fhir+json';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Components the FHIR operations refer to: a resource (its R4 definition is FHIR's, not restated here) and OperationOutcome. */
const FHIR_SCHEMAS: Json = {
  FhirResource: {
    type: 'object',
    description: 'A FHIR R4 resource (http://hl7.org/fhir/R4/), validated against the R4 definitions',
    required: ['resourceType'],
    properties: { resourceType: { type: 'string', description: 'The resource type, e.g. Patient, Bundle' }, id: { type: 'string', description: 'The FHIR id: our id with `_` written `-`' } },
    additionalProperties: true,
  },
  OperationOutcome: {
    type: 'object',
    description: 'A FHIR error: one issue per problem; `details.coding[0].code` is the stable error code of the REST envelope',
    required: ['resourceType', 'issue'],
    properties: {
      resourceType: { type: 'string', const: 'OperationOutcome' },
      issue: {
        type: 'array',
        items: {
          type: 'object',
          required: ['severity', 'code'],
          properties: {
            severity: { type: 'string', enum: ['fatal', 'error', 'warning', 'information'] },
            code: { type: 'string', description: 'FHIR issue type: invalid, processing, login, forbidden, not-found, not-supported, throttled, …' },
            details: { type: 'object', additionalProperties: true },
            diagnostics: { type: 'string' },
            expression: { type: 'array', items: { type: 'string' }, description: 'Where: a linkId, a search parameter or a field' },
          },
        },
      },
    },
  },
};

const ERRORS: Record<string, string> = {
  '400': 'A search parameter or the body is not understood (OperationOutcome)',
  '401': 'Missing, malformed or invalid credential (OperationOutcome)',
  '403': 'The credential lacks the scope (OperationOutcome)',
  '404': 'No such resource in this account and mode (OperationOutcome)',
  '406': 'A format other than JSON was asked for (OperationOutcome)',
  '429': 'Rate limited; see Retry-After (OperationOutcome)',
  '500': 'Failure on the service side; retryable (OperationOutcome)',
};

function operation(op: FhirOperation): Json {
  const scopes = op.scope === null ? null : typeof op.scope === 'string' ? [op.scope] : op.scope;
  const outcome = (description: string) => ({ description, content: { [FHIR_JSON]: { schema: ref('OperationOutcome') } } });
  const responses: Json = { [String(op.successStatus ?? 200)]: { description: op.returns, content: { [FHIR_JSON]: { schema: ref('FhirResource') } } } };
  if (op.successStatus === 201) responses['200'] = { description: 'The same content is already the approved or a pending version: that version', content: { [FHIR_JSON]: { schema: ref('FhirResource') } } };
  for (const [code, description] of Object.entries<string>({ ...ERRORS, ...op.errorResponses })) {
    if (op.scope === null && (code === '401' || code === '403' || code === '404' || code === '429')) continue;
    if (code === '404' && !op.path.includes('{id}')) continue;
    responses[code] = outcome(description);
  }
  if (op.method === 'POST') responses['415'] = outcome('The body is not JSON (OperationOutcome)');
  const parameters: Json[] = [
    ...(op.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'The FHIR id' }] : []),
    ...(op.searchParameters ?? []).map((p) => ({ name: p.name, in: 'query', required: false, schema: { type: 'string' }, description: p.description })),
    { name: '_format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'application/json', 'application/fhir+json'] }, description: 'JSON is the only format served' },
  ];
  return {
    operationId: op.operationId,
    summary: op.summary,
    description: scopes ? `FHIR R4, \`${FHIR_JSON}\`. Needs ${scopes.map((s) => `\`${s}\``).join(' or ')}.` : `FHIR R4, \`${FHIR_JSON}\`. No credential.`,
    tags: ['fhir'],
    security: scopes ? [{ bearerAuth: [] }] : [],
    parameters,
    ...(op.method === 'POST' ? { requestBody: { required: true, content: { [FHIR_JSON]: { schema: ref('FhirResource') }, 'application/json': { schema: ref('FhirResource') } } } } : {}),
    responses,
  };
}

/** The FHIR operations into the document: served by the HTTP layer (server/http/fhir.ts), documented here. */
export function addFhirOperations(doc: Json): void {
  doc.components.schemas = { ...doc.components.schemas, ...FHIR_SCHEMAS };
  for (const op of FHIR_OPERATIONS) (doc.paths[op.path] ??= {})[op.method.toLowerCase()] = operation(op);
}
