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
  InvitesAnswer,
  CreateInviteBody,
  CreatedAnswer,
  DeleteInviteBody,
  MessageAnswer,
  UsesQuery,
  UsesAnswer,
  InviteCreatedBody,
  InviteEventBody,
} from './schemas.js';
import { guildQuery, guildBody } from '#shared/http/schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';

const base = '/modules/invite-tracker';

export const getSettings = settingsReadRoute('invite-tracker', { summary: "A guild's invite-tracker settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('invite-tracker', {
  summary: "Change a guild's invite-tracker settings",
  body: SettingsBody,
  owned: checkOwned,
  response: SettingsAnswer,
});
export const deleteSettings = settingsDeleteRoute('invite-tracker', {
  summary: 'Remove all invite-tracker data of a guild and reset the module',
  response: DeletedSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('invite-tracker', "Count a member's invite uses and invites");
export const privacyDeleteUserEntries = privacyDeleteRoute('invite-tracker', "Delete a member's invite uses and ownership");

export const listInvites = route({
  id: 'invite-tracker.list-invites',
  method: 'GET',
  path: `${base}/invites`,
  access: 'client',
  summary: 'The invites the service tracks',
  query: guildQuery,
  response: InvitesAnswer,
});

export const createInvite = route({
  id: 'invite-tracker.create-invite',
  method: 'POST',
  path: `${base}/invites`,
  access: 'client',
  summary: 'Create an invite on the platform',
  body: CreateInviteBody,
  owned: checkOwned,
  actor: 'optional',
  response: CreatedAnswer,
  answerFailures: answerFailures('The invite was not created.'),
});

export const deleteInvite = route({
  id: 'invite-tracker.delete-invite',
  method: 'DELETE',
  path: `${base}/invites`,
  access: 'client',
  summary: 'Delete an invite on the platform',
  body: DeleteInviteBody,
  owned: checkOwned,
  response: MessageAnswer,
  answerFailures: answerFailures('The invite was not deleted.'),
});

export const getUses = route({
  id: 'invite-tracker.get-uses',
  method: 'GET',
  path: `${base}/stats/uses`,
  access: 'client',
  summary: "An inviter's counted joins",
  query: UsesQuery,
  response: UsesAnswer,
});

export const inviteCreated = route({
  id: 'invite-tracker.invite-created',
  method: 'POST',
  path: `${base}/events/invite/create`,
  access: 'internal',
  summary: 'An invite was made on the platform',
  body: InviteCreatedBody,
  response: MessageAnswer,
});

export const inviteDeleted = route({
  id: 'invite-tracker.invite-deleted',
  method: 'POST',
  path: `${base}/events/invite/delete`,
  access: 'internal',
  summary: 'An invite was deleted on the platform',
  body: InviteEventBody,
  response: MessageAnswer,
});

export const joinCheck = route({
  id: 'invite-tracker.join-check',
  method: 'POST',
  path: `${base}/events/join/check-invite`,
  access: 'internal',
  summary: 'A member joined: attribute the join',
  body: guildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const leaveCheck = route({
  id: 'invite-tracker.leave-check',
  method: 'POST',
  path: `${base}/events/leave/check-invite`,
  access: 'internal',
  summary: 'A member left',
  body: guildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('invite-tracker'),
  getSettings,
  updateSettings,
  deleteSettings,
  listInvites,
  createInvite,
  deleteInvite,
  getUses,
  inviteCreated,
  inviteDeleted,
  joinCheck,
  leaveCheck,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
