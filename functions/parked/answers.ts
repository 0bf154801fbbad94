import type { AnswerTable } from '#shared/http/answers.js';
import { ParkedPageAnswer, ReplayAnswer } from './schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'parked.list': ParkedPageAnswer,
  'parked.replay': ReplayAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
