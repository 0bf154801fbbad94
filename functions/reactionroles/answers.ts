import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { CheckAnswer, DeletedPanelAnswer, EntriesAnswer, EntryAnswer, PanelAnswer, PanelsPage, RemovedAnswer } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'reactionroles.home': HomeAnswer,
  'reactionroles.status': StatusAnswer,
  'reactionroles.enable': SnapshotAnswer,
  'reactionroles.disable': SnapshotAnswer,
  'reactionroles.delete-module': RemovedAnswer,
  'reactionroles.privacy-get': privacyCounts,
  'reactionroles.privacy-delete': messageAnswer,
  'reactionroles.list-panels': PanelsPage,
  'reactionroles.create-panel': PanelAnswer,
  'reactionroles.get-panel': PanelAnswer,
  'reactionroles.edit-panel': PanelAnswer,
  'reactionroles.delete-panel': DeletedPanelAnswer,
  'reactionroles.list-entries': EntriesAnswer,
  'reactionroles.add-entry': EntryAnswer,
  'reactionroles.get-entry': EntryAnswer,
  'reactionroles.delete-entry': EntryAnswer,
  'reactionroles.edit-entry': EntryAnswer,
  'reactionroles.check': CheckAnswer,
  'reactionroles.check-delete': RemovedAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
