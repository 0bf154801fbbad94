import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { DeleteSettingsAnswer, MessageAnswer, ResponseAnswer, ResponsesAnswer, SettingsAnswer, TimedRoleAnswer, TimedRolesAnswer } from './model.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'welcoming.home': HomeAnswer,
  'welcoming.status': StatusAnswer,
  'welcoming.enable': SnapshotAnswer,
  'welcoming.disable': SnapshotAnswer,
  'welcoming.get-settings': SettingsAnswer,
  'welcoming.update-settings': SettingsAnswer,
  'welcoming.delete-settings': DeleteSettingsAnswer,
  'welcoming.privacy-get-user-entries': privacyCounts,
  'welcoming.privacy-delete-user-entries': messageAnswer,
  'welcoming.list-responses': ResponsesAnswer,
  'welcoming.create-response': ResponseAnswer,
  'welcoming.get-response': ResponseAnswer,
  'welcoming.delete-response': ResponseAnswer,
  'welcoming.list-timedroles': TimedRolesAnswer,
  'welcoming.create-timedrole': TimedRoleAnswer,
  'welcoming.get-timedrole': TimedRoleAnswer,
  'welcoming.delete-timedrole': TimedRoleAnswer,
  'welcoming.check-welcome-dm': MessageAnswer,
  'welcoming.check-welcome-channel': MessageAnswer,
  'welcoming.check-leave-channel': MessageAnswer,
  'welcoming.check-role-on-join': MessageAnswer,
  'welcoming.check-role-timed': MessageAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
