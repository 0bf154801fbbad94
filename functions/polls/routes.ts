import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';
import {
  SettingsBody,
  ListPollsQuery,
  CreatePollBody,
  GetPollQuery,
  PollPath,
  EditPollBody,
  OwnerActionBody,
  VoteBody,
  MessageDeletedBody,
  HandlerCreateBody,
  HandlerEditBody,
  HandlerPollBody,
  HandlerVoteBody,
} from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { VotersQuery } from './schemas.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'polls.home',
  method: 'GET',
  path: '/modules/polls/',
  access: 'public',
  summary: 'Home of the polls module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'polls.status',
  method: 'GET',
  path: '/modules/polls/status',
  access: 'client',
  summary: 'Whether polls is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'polls.enable',
  method: 'POST',
  path: '/modules/polls/enable',
  access: 'client',
  summary: 'Enable polls for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'polls.disable',
  method: 'POST',
  path: '/modules/polls/disable',
  access: 'client',
  summary: 'Disable polls for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;
export const handlerHome = {
  id: 'polls.handler-home',
  method: 'GET',
  path: '/modules/polls/handler',
  access: 'public',
  summary: 'Home of the polls scheduling handler',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;

export const getSettings = {
  id: 'polls.get-settings',
  method: 'GET',
  path: '/modules/polls/settings',
  access: 'client',
  summary: "A guild's poll settings",
  file: 'functions/polls/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'polls.update-settings',
  method: 'PUT',
  path: '/modules/polls/settings',
  access: 'client',
  summary: "Change a guild's poll settings",
  file: 'functions/polls/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
} as const satisfies Route;
export const deleteSettings = {
  id: 'polls.delete-settings',
  method: 'DELETE',
  path: '/modules/polls/settings/delete',
  access: 'client',
  summary: 'Remove all poll data of a guild and reset the module',
  file: 'functions/polls/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'polls.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/polls/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's votes and owned polls",
  file: 'functions/polls/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'polls.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/polls/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's votes and owner references",
  file: 'functions/polls/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listPolls = {
  id: 'polls.list-polls',
  method: 'GET',
  path: '/modules/polls/entries',
  access: 'client',
  summary: "A guild's polls, newest first",
  query: ListPollsQuery,
} as const satisfies Route;

export const createPoll = {
  id: 'polls.create-poll',
  method: 'POST',
  path: '/modules/polls/entries',
  access: 'client',
  summary: 'Create a poll in a channel',
  body: CreatePollBody,
  owned: checkOwned,
  answerFailures: /* @__PURE__ */ answerFailures('Your poll could not be created.'),
} as const satisfies Route;

export const getPoll = {
  id: 'polls.get-poll',
  method: 'GET',
  path: '/modules/polls/entry/{poll_id}',
  access: 'client',
  summary: 'One poll with its counts',
  query: GetPollQuery,
  params: PollPath,
} as const satisfies Route;

export const editPoll = {
  id: 'polls.edit-poll',
  method: 'PUT',
  path: '/modules/polls/entry/{poll_id}',
  access: 'client',
  summary: 'Edit an open service poll (owner only)',
  body: EditPollBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('Your poll could not be edited.'),
} as const satisfies Route;

export const deletePoll = {
  id: 'polls.delete-poll',
  method: 'DELETE',
  path: '/modules/polls/entry/{poll_id}',
  access: 'client',
  summary: 'Delete a poll and its message (owner only)',
  body: OwnerActionBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('Your poll could not be deleted.'),
} as const satisfies Route;

export const closePoll = {
  id: 'polls.close-poll',
  method: 'POST',
  path: '/modules/polls/entry/{poll_id}/close',
  access: 'client',
  summary: 'Close a poll and show its results (owner only)',
  body: OwnerActionBody,
  params: PollPath,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('Your poll could not be closed.'),
} as const satisfies Route;

export const vote = {
  id: 'polls.vote',
  method: 'POST',
  path: '/modules/polls/entry/vote',
  access: 'internal',
  summary: 'A member votes or takes a vote back',
  body: VoteBody,
  actor: 'required',
  answerFailures: /* @__PURE__ */ answerFailures('Your vote was not counted.'),
} as const satisfies Route;

export const deletePollOnMessageDelete = {
  id: 'polls.delete-poll-on-message-delete',
  method: 'DELETE',
  path: '/modules/polls/entry/delete-poll-on-message-delete',
  access: 'internal',
  summary: "A message was deleted: remove its poll's data",
  body: MessageDeletedBody,
} as const satisfies Route;

export const handlerCreate = {
  id: 'polls.handler-create',
  file: 'functions/polls/internal-create.ts',
  method: 'POST',
  path: '/modules/polls/handler/create',
  access: 'internal',
  summary: 'Register a poll with explicit times',
  body: HandlerCreateBody,
  owned: checkOwned,
} as const satisfies Route;

export const handlerEdit = {
  id: 'polls.handler-edit',
  file: 'functions/polls/internal-edit.ts',
  method: 'POST',
  path: '/modules/polls/handler/edit',
  access: 'internal',
  summary: 'Edit a poll directly',
  body: HandlerEditBody,
} as const satisfies Route;

export const handlerClose = {
  id: 'polls.handler-close',
  file: 'functions/polls/internal-close.ts',
  method: 'POST',
  path: '/modules/polls/handler/close',
  access: 'internal',
  summary: 'Close a poll directly',
  body: HandlerPollBody,
} as const satisfies Route;

export const handlerVote = {
  id: 'polls.handler-vote',
  file: 'functions/polls/internal-vote.ts',
  method: 'POST',
  path: '/modules/polls/handler/vote',
  access: 'internal',
  summary: 'Vote on a poll directly',
  body: HandlerVoteBody,
  actor: 'required',
} as const satisfies Route;

export const handlerDelete = {
  id: 'polls.handler-delete',
  file: 'functions/polls/internal-delete.ts',
  method: 'DELETE',
  path: '/modules/polls/handler/delete',
  access: 'internal',
  summary: 'Delete a poll directly',
  body: HandlerPollBody,
} as const satisfies Route;

export const listVoters = {
  id: 'polls.list-voters',
  method: 'GET',
  path: '/modules/polls/entry/{poll_id}/voters',
  access: 'client',
  summary: "A page of a poll's voters, in member order",
  params: PollPath,
  query: VotersQuery,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,
  handlerHome,

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
