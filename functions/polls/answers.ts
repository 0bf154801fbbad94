import type { AnswerTable } from '#shared/http/answers.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from '../module-state/answers.js';
import { DeletedSettingsAnswer, MaybePollAnswer, PollAnswer, PollSettingsAnswer, PollsPage, VoteAnswer, VotersPage } from './schemas.js';
import { messageAnswer, privacyCounts } from '#shared/http/schemas.js';

/** What each route of the module answers, by id (shared/http/answers.ts): read by the OpenAPI document and the tests, never bundled. */
export const answers = {
  'polls.home': HomeAnswer,
  'polls.status': StatusAnswer,
  'polls.enable': SnapshotAnswer,
  'polls.disable': SnapshotAnswer,
  'polls.handler-home': HomeAnswer,
  'polls.get-settings': PollSettingsAnswer,
  'polls.update-settings': PollSettingsAnswer,
  'polls.delete-settings': DeletedSettingsAnswer,
  'polls.privacy-get-user-entries': privacyCounts,
  'polls.privacy-delete-user-entries': messageAnswer,
  'polls.list-polls': PollsPage,
  'polls.create-poll': PollAnswer,
  'polls.get-poll': PollAnswer,
  'polls.edit-poll': PollAnswer,
  'polls.delete-poll': PollAnswer,
  'polls.close-poll': PollAnswer,
  'polls.vote': VoteAnswer,
  'polls.delete-poll-on-message-delete': MaybePollAnswer,
  'polls.handler-create': PollAnswer,
  'polls.handler-edit': PollAnswer,
  'polls.handler-close': PollAnswer,
  'polls.handler-vote': VoteAnswer,
  'polls.handler-delete': PollAnswer,
  'polls.list-voters': VotersPage,
} as const satisfies AnswerTable;

type Declared = typeof answers;
declare module '#shared/http/answers.js' {
  interface Answers extends Declared {}
}
