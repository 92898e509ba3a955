import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the SDK's generated types live (committed; tests/no-database/sdk-types.test.ts holds them to the served document). */
export const SDK_TYPES_FILE = 'sdk/src/generated/openapi.ts';

/**
 * The SDK's types for an OpenAPI document, exactly as `openapi-typescript <url> -o …` writes them (sdk's own
 * `npm run generate` against a running server gives the same file): `npm run sdk:types` and the test agree.
 */
export async function renderSdkTypes(doc: unknown): Promise<string> {
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import('openapi-typescript');
  return COMMENT_HEADER + astToString(await openapiTS(doc as never));
}

// `npm run sdk:types`: the document as the service builds it, rendered into the SDK.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { appRouter } = await import('../server/api/root');
  const { buildRouteTable } = await import('../server/api/route-table');
  const { buildOpenApiDocument } = await import('../server/api/openapi');
  writeFileSync(SDK_TYPES_FILE, await renderSdkTypes(buildOpenApiDocument(appRouter, buildRouteTable(appRouter))));
  console.log(`Wrote ${SDK_TYPES_FILE}`);
}
