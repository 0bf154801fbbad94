import { readFileSync } from 'node:fs';
import openapiTS, { COMMENT_HEADER, astToString } from 'openapi-typescript';
import { expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { loadOpenApiDocument } from '#shared/openapi/load.js';

/** The committed client types are those of the document the service publishes now. */
it('clients/typescript/schema.d.ts is generated from the current document (else: npm run client)', async () => {
  const document = JSON.parse(JSON.stringify(await loadOpenApiDocument(routes)));
  const generated = COMMENT_HEADER + astToString(await openapiTS(document));
  const committed = readFileSync(new URL('../../clients/typescript/schema.d.ts', import.meta.url), 'utf8');
  expect(committed === generated, 'clients/typescript/schema.d.ts is out of date: run `npm run client` and commit it').toBe(true);
});
