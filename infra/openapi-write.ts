/**
 * Writes the OpenAPI document to a file (default `dist/openapi.json`), for the
 * linters and the client generator: `tsx infra/openapi-write.ts [file]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { routes } from '#functions/routes.js';
import { loadOpenApiDocument } from '#shared/openapi/load.js';

const file = resolve(process.argv[2] ?? 'dist/openapi.json');
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(await loadOpenApiDocument(routes), null, 2)}\n`);
console.log(`OpenAPI document written to ${file}`);
