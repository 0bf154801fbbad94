import { type Route, route } from '#shared/http/route.js';
import {
  home,
  moduleStateRoute,
  moduleStateRoutes,
  privacyCountRoute,
  privacyDeleteRoute,
  settingsDeleteRoute,
  settingsReadRoute,
  settingsUpdateRoute,
} from '../module-state/routes.js';
import {
  DeletedSettingsAnswer,
  PollSettingsAnswer,
  SettingsBody,
  ListPollsQuery,
  PollsPage,
  CreatePollBody,
  PollAnswer,
  GetPollQuery,
  PollPath,
  EditPollBody,
  OwnerActionBody,
  VoteBody,
  VoteAnswer,
  MessageDeletedBody,
  MaybePollAnswer,
  HandlerCreateBody,
  HandlerEditBody,
  HandlerPollBody,
  HandlerVoteBody,
} from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { VotersQuery, VotersPage } from './schemas.js';

const base = '/modules/polls';

export const getSettings = settingsReadRoute('polls', { summary: "A guild's poll settings", response: PollSettingsAnswer });
export const updateSettings = settingsUpdateRoute('polls', { summary: "Change a guild's poll settings", body: SettingsBody, response: PollSettingsAnswer });
export const deleteSettings = settingsDeleteRoute('polls', {
  summary: 'Remove all poll data of a guild and reset the module',
  path: '/settings/delete',
  response: DeletedSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('polls', "Count a member's votes and owned polls");
export const privacyDeleteUserEntries = privacyDeleteRoute('polls', "Delete a member's votes and owner references");

export const listPolls = route({
  id: 'polls.list-polls',
  method: 'GET',
  path: `${base}/entries`,
  access: 'client',
  summary: "A guild's polls, newest first",
  query: ListPollsQuery,
  response: PollsPage,
});

export const createPoll = route({
  id: 'polls.create-poll',
  method: 'POST',
  path: `${base}/entries`,
  access: 'client',
  summary: 'Create a poll in a channel',
  body: CreatePollBody,
  owned: checkOwned,
  answerFailures: answerFailures('Your poll could not be created.'),
  response: PollAnswer,
});

export const getPoll = route({
  id: 'polls.get-poll',
  method: 'GET',
  path: `${base}/entry/{poll_id}`,
  access: 'client',
  summary: 'One poll with its counts',
  query: GetPollQuery,
  params: PollPath,
  response: PollAnswer,
});

export const editPoll = route({
  id: 'polls.edit-poll',
  method: 'PUT',
  path: `${base}/entry/{poll_id}`,
  access: 'client',
  summary: 'Edit an open service poll (owner only)',
  body: EditPollBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: answerFailures('Your poll could not be edited.'),
  response: PollAnswer,
});

export const deletePoll = route({
  id: 'polls.delete-poll',
  method: 'DELETE',
  path: `${base}/entry/{poll_id}`,
  access: 'client',
  summary: 'Delete a poll and its message (owner only)',
  body: OwnerActionBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: answerFailures('Your poll could not be deleted.'),
  response: PollAnswer,
});

export const closePoll = route({
  id: 'polls.close-poll',
  method: 'POST',
  path: `${base}/entry/{poll_id}/close`,
  access: 'client',
  summary: 'Close a poll and show its results (owner only)',
  body: OwnerActionBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: answerFailures('Your poll could not be closed.'),
  response: PollAnswer,
});

export const vote = route({
  id: 'polls.vote',
  method: 'POST',
  path: `${base}/entry/vote`,
  access: 'internal',
  summary: 'A member votes or takes a vote back',
  body: VoteBody,
  actor: 'required',
  answerFailures: answerFailures('Your vote was not counted.'),
  response: VoteAnswer,
});

export const deletePollOnMessageDelete = route({
  id: 'polls.delete-poll-on-message-delete',
  method: 'DELETE',
  path: `${base}/entry/delete-poll-on-message-delete`,
  access: 'internal',
  summary: "A message was deleted: remove its poll's data",
  body: MessageDeletedBody,
  response: MaybePollAnswer,
});

export const handlerCreate = route({
  id: 'polls.handler-create',
  file: 'functions/polls/internal-create.ts',
  method: 'POST',
  path: `${base}/handler/create`,
  access: 'internal',
  summary: 'Register a poll with explicit times',
  body: HandlerCreateBody,
  owned: checkOwned,
  response: PollAnswer,
});

export const handlerEdit = route({
  id: 'polls.handler-edit',
  file: 'functions/polls/internal-edit.ts',
  method: 'POST',
  path: `${base}/handler/edit`,
  access: 'internal',
  summary: 'Edit a poll directly',
  body: HandlerEditBody,
  response: PollAnswer,
});

export const handlerClose = route({
  id: 'polls.handler-close',
  file: 'functions/polls/internal-close.ts',
  method: 'POST',
  path: `${base}/handler/close`,
  access: 'internal',
  summary: 'Close a poll directly',
  body: HandlerPollBody,
  response: PollAnswer,
});

export const handlerVote = route({
  id: 'polls.handler-vote',
  file: 'functions/polls/internal-vote.ts',
  method: 'POST',
  path: `${base}/handler/vote`,
  access: 'internal',
  summary: 'Vote on a poll directly',
  body: HandlerVoteBody,
  actor: 'required',
  response: VoteAnswer,
});

export const handlerDelete = route({
  id: 'polls.handler-delete',
  file: 'functions/polls/internal-delete.ts',
  method: 'DELETE',
  path: `${base}/handler/delete`,
  access: 'internal',
  summary: 'Delete a poll directly',
  body: HandlerPollBody,
  response: PollAnswer,
});

export const listVoters = route({
  id: 'polls.list-voters',
  method: 'GET',
  path: `${base}/entry/{poll_id}/voters`,
  access: 'client',
  summary: "A page of a poll's voters, in member order",
  params: PollPath,
  query: VotersQuery,
  response: VotersPage,
});

export const routes: Route[] = [
  ...moduleStateRoutes('polls'),
  moduleStateRoute(home, 'polls', { operation: 'handler-home', path: '/handler', summary: 'Home of the polls scheduling handler' }),

  getSettings,
  updateSettings,
  deleteSettings,

  listPolls,
  createPoll,
  getPoll,
  listVoters,
  editPoll,
  deletePoll,
  closePoll,
  vote,
  deletePollOnMessageDelete,

  handlerCreate,
  handlerEdit,
  handlerClose,
  handlerVote,
  handlerDelete,

  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
