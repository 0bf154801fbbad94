import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { CreatedAnswer, DeletedSettingsAnswer, InvitesAnswer, MessageAnswer, SettingsAnswer, UsesAnswer } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'invite-tracker.home': HomeAnswer,
  'invite-tracker.status': StatusAnswer,
  'invite-tracker.enable': SnapshotAnswer,
  'invite-tracker.disable': SnapshotAnswer,
  'invite-tracker.get-settings': SettingsAnswer,
  'invite-tracker.update-settings': SettingsAnswer,
  'invite-tracker.delete-settings': DeletedSettingsAnswer,
  'invite-tracker.privacy-get-user-entries': privacyCounts,
  'invite-tracker.privacy-delete-user-entries': messageAnswer,
  'invite-tracker.list-invites': InvitesAnswer,
  'invite-tracker.create-invite': CreatedAnswer,
  'invite-tracker.delete-invite': MessageAnswer,
  'invite-tracker.get-uses': UsesAnswer,
  'invite-tracker.invite-created': MessageAnswer,
  'invite-tracker.invite-deleted': MessageAnswer,
  'invite-tracker.join-check': MessageAnswer,
  'invite-tracker.leave-check': MessageAnswer,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
