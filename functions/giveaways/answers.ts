import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { DeletedSettingsAnswer, EntriesAnswer, EntryAnswer, MessageAnswer, ParticipantsAnswer, SettingsAnswer } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'giveaways.home': HomeAnswer,
  'giveaways.status': StatusAnswer,
  'giveaways.enable': SnapshotAnswer,
  'giveaways.disable': SnapshotAnswer,
  'giveaways.get-settings': SettingsAnswer,
  'giveaways.update-settings': SettingsAnswer,
  'giveaways.delete-settings': DeletedSettingsAnswer,
  'giveaways.privacy-get-user-entries': privacyCounts,
  'giveaways.privacy-delete-user-entries': messageAnswer,
  'giveaways.list-entries': EntriesAnswer,
  'giveaways.create-entry': EntryAnswer,
  'giveaways.get-entry': EntryAnswer,
  'giveaways.edit-entry': MessageAnswer,
  'giveaways.delete-entry': EntryAnswer,
  'giveaways.enter': MessageAnswer,
  'giveaways.leave': MessageAnswer,
  'giveaways.reroll': MessageAnswer,
  'giveaways.end-entry': MessageAnswer,
  'giveaways.list-participants': ParticipantsAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
