import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { DeletedSettingsAnswer, MemeAnswer, MessageAnswer, SettingsAnswer, UploadsAnswer, deletedAnswer, entryAnswer, listAnswer } from './schemas.js';
import { KIND_LIST } from './kinds.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'socials.home': HomeAnswer,
  'socials.status': StatusAnswer,
  'socials.enable': SnapshotAnswer,
  'socials.disable': SnapshotAnswer,
  'socials.handler-home': HomeAnswer,
  'socials.get-settings': SettingsAnswer,
  'socials.update-settings': SettingsAnswer,
  'socials.delete-settings': DeletedSettingsAnswer,
  'socials.privacy-get-user-entries': privacyCounts,
  'socials.privacy-delete-user-entries': messageAnswer,
  'socials.forum-refresh-filter': MessageAnswer,
  'socials.stream-refresh-filter': MessageAnswer,
  'socials.get-uploads-playlist-id': UploadsAnswer,
  'socials.get-meme': MemeAnswer,
  'socials.send-meme': MessageAnswer,
} as const satisfies AnswerTable;

/** What each kind's routes answer (functions/socials/routes.ts declares them from the kinds table). */
export const familyAnswers: AnswerTable = Object.fromEntries(
  KIND_LIST.flatMap(({ kind }) => [
    [`socials.list-${kind}`, listAnswer(kind)],
    [`socials.create-${kind}`, entryAnswer(kind)],
    [`socials.delete-${kind}`, deletedAnswer(kind)],
    [`socials.send-${kind}`, MessageAnswer],
  ]),
);

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
