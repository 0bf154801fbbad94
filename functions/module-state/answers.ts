import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from './schemas.js';

/** What each module's copy of a state route answers: its `answers.ts` names them. */
export { HomeAnswer, SnapshotAnswer, StatusAnswer };

/** What each state route answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'module-state.home': HomeAnswer,
  'module-state.status': StatusAnswer,
  'module-state.enable': SnapshotAnswer,
  'module-state.disable': SnapshotAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
