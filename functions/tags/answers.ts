import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { DeleteSettingsAnswer, MessageAnswer, TagAnswer, TagsPageAnswer } from './model.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'tags.home': HomeAnswer,
  'tags.status': StatusAnswer,
  'tags.enable': SnapshotAnswer,
  'tags.disable': SnapshotAnswer,
  'tags.delete-settings': DeleteSettingsAnswer,
  'tags.privacy-get-user-entries': privacyCounts,
  'tags.privacy-delete-user-entries': messageAnswer,
  'tags.list-entries': TagsPageAnswer,
  'tags.create-entry': TagAnswer,
  'tags.get-entry': TagAnswer,
  'tags.update-entry': TagAnswer,
  'tags.delete-entry': TagAnswer,
  'tags.send-entry': MessageAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
