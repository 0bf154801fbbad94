import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { CreatedAnswer, DeletedSettingsAnswer, EntriesAnswer, EntryAnswer, MessageAnswer, SettingsAnswer } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';
import { webAnswer } from './web-answers.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'verifier.home': HomeAnswer,
  'verifier.status': StatusAnswer,
  'verifier.enable': SnapshotAnswer,
  'verifier.disable': SnapshotAnswer,
  'verifier.get-settings': SettingsAnswer,
  'verifier.update-settings': SettingsAnswer,
  'verifier.delete-settings': DeletedSettingsAnswer,
  'verifier.privacy-get-user-entries': privacyCounts,
  'verifier.privacy-delete-user-entries': messageAnswer,
  'verifier.list-entries': EntriesAnswer,
  'verifier.get-entry': EntryAnswer,
  'verifier.create-verification': CreatedAnswer,
  'verifier.handle-verification': MessageAnswer,
  'verifier.web-page': webAnswer('The verification page'),
  'verifier.web-verify': webAnswer('The page saying the member is verified'),
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
