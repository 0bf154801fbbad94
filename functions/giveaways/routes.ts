import { type Route, route } from '#shared/http/route.js';
import {
  moduleStateRoutes,
  privacyCountRoute,
  privacyDeleteRoute,
  settingsDeleteRoute,
  settingsReadRoute,
  settingsUpdateRoute,
} from '../module-state/routes.js';
import {
  DeletedSettingsAnswer,
  SettingsAnswer,
  SettingsBody,
  EntriesAnswer,
  CreateBody,
  EntryAnswer,
  EntryPath,
  EntryQuery,
  EditBody,
  MessageAnswer,
  ActionBody,
  ListQuery,
} from './schemas.js';

import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { ParticipantsQuery, ParticipantsAnswer } from './schemas.js';

const base = '/modules/giveaways';
const entry = `${base}/entries/{entry_id}`;

export const getSettings = settingsReadRoute('giveaways', { summary: "A guild's giveaway settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('giveaways', { summary: "Change a guild's giveaway settings", body: SettingsBody, response: SettingsAnswer });
export const deleteSettings = settingsDeleteRoute('giveaways', {
  summary: 'Remove all giveaway data of a guild and reset the module',
  response: DeletedSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('giveaways', "Count a member's entries, wins and hosted giveaways");
export const privacyDeleteUserEntries = privacyDeleteRoute('giveaways', "Remove a member's entries, wins and hosting");

export const listEntries = route({
  id: 'giveaways.list-entries',
  method: 'GET',
  path: `${base}/entries`,
  access: 'client',
  summary: "A page of a guild's giveaways, newest first",
  query: ListQuery,
  response: EntriesAnswer,
});

export const createEntry = route({
  id: 'giveaways.create-entry',
  method: 'POST',
  path: `${base}/entries`,
  access: 'client',
  summary: 'Start a giveaway in a channel',
  body: CreateBody,
  owned: checkOwned,
  response: EntryAnswer,
  answerFailures: answerFailures('The giveaway was not created.'),
});

export const getEntry = route({
  id: 'giveaways.get-entry',
  method: 'GET',
  path: entry,
  access: 'client',
  summary: 'One giveaway',
  params: EntryPath,
  query: EntryQuery,
  response: EntryAnswer,
});

export const editEntry = route({
  id: 'giveaways.edit-entry',
  method: 'PUT',
  path: entry,
  access: 'client',
  summary: 'Edit a running giveaway (owner only)',
  params: EntryPath,
  body: EditBody,
  actor: 'optional',
  response: MessageAnswer,
  answerFailures: answerFailures('The giveaway was not edited.'),
});

export const deleteEntry = route({
  id: 'giveaways.delete-entry',
  method: 'DELETE',
  path: entry,
  access: 'client',
  summary: 'Delete a giveaway and its message (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  response: EntryAnswer,
  answerFailures: answerFailures('The giveaway was not deleted.'),
});

export const enter = route({
  id: 'giveaways.enter',
  method: 'POST',
  path: `${entry}/enter`,
  access: 'client',
  summary: 'A member enters',
  params: EntryPath,
  body: ActionBody,
  actor: 'required',
  response: MessageAnswer,
  answerFailures: answerFailures('Your entry was not recorded.'),
});

export const leave = route({
  id: 'giveaways.leave',
  method: 'POST',
  path: `${entry}/leave`,
  access: 'client',
  summary: 'A member leaves',
  params: EntryPath,
  body: ActionBody,
  actor: 'required',
  response: MessageAnswer,
  answerFailures: answerFailures('Your leaving was not recorded.'),
});

export const reroll = route({
  id: 'giveaways.reroll',
  method: 'POST',
  path: `${entry}/reroll`,
  access: 'client',
  summary: 'Draw the next round after the end (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  response: MessageAnswer,
  answerFailures: answerFailures('The giveaway was not rerolled.'),
});

export const endEntry = route({
  id: 'giveaways.end-entry',
  method: 'POST',
  path: `${entry}/end`,
  access: 'client',
  summary: 'End a running giveaway now: its winners are drawn as at its end time (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  response: MessageAnswer,
  answerFailures: answerFailures('The giveaway was not ended.'),
});

export const listParticipants = route({
  id: 'giveaways.list-participants',
  method: 'GET',
  path: `${entry}/participants`,
  access: 'client',
  summary: "A page of a giveaway's entrants, in numeric order",
  params: EntryPath,
  query: ParticipantsQuery,
  response: ParticipantsAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('giveaways'),
  getSettings,
  updateSettings,
  deleteSettings,
  listEntries,
  createEntry,
  getEntry,
  listParticipants,
  editEntry,
  deleteEntry,
  enter,
  leave,
  endEntry,
  reroll,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
