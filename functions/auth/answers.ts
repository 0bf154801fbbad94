import type { AnswerTable } from '#shared/http/answers.js';
import { ApiKeyAnswer, ApiKeysAnswer, NewApiKeyAnswer } from './schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'auth.create-api-key': NewApiKeyAnswer,
  'auth.list-api-keys': ApiKeysAnswer,
  'auth.get-api-key': ApiKeyAnswer,
  'auth.delete-api-key': ApiKeyAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
