import type { AnswerTable } from '#shared/http/answers.js';
import { statusAnswer } from './schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'health.livez': statusAnswer,
  'health.readyz': statusAnswer,
  'docs.openapi': { contentType: 'application/json', description: 'This OpenAPI 3.1 document, with its ETag (304 without a body when If-None-Match names it)' },
  'docs.page': { contentType: 'text/html; charset=utf-8', description: 'This documentation page' },
  'docs.renderer': { contentType: 'application/javascript', description: "The documentation page's renderer (Redoc)" },
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
