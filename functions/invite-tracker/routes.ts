import { privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { SettingsBody, CreateInviteBody, DeleteInviteBody, UsesQuery, InviteCreatedBody, InviteEventBody } from './schemas.js';
import { guildQuery, guildBody } from '#shared/http/schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'invite-tracker.home',
  method: 'GET',
  path: '/modules/invite-tracker/',
  access: 'public',
  summary: 'Home of the invite-tracker module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'invite-tracker.status',
  method: 'GET',
  path: '/modules/invite-tracker/status',
  access: 'client',
  summary: 'Whether invite-tracker is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'invite-tracker.enable',
  method: 'POST',
  path: '/modules/invite-tracker/enable',
  access: 'client',
  summary: 'Enable invite-tracker for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'invite-tracker.disable',
  method: 'POST',
  path: '/modules/invite-tracker/disable',
  access: 'client',
  summary: 'Disable invite-tracker for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const getSettings = {
  id: 'invite-tracker.get-settings',
  method: 'GET',
  path: '/modules/invite-tracker/settings',
  access: 'client',
  summary: "A guild's invite-tracker settings",
  file: 'functions/invite-tracker/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'invite-tracker.update-settings',
  method: 'PUT',
  path: '/modules/invite-tracker/settings',
  access: 'client',
  summary: "Change a guild's invite-tracker settings",
  file: 'functions/invite-tracker/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
  owned: checkOwned,
} as const satisfies Route;
export const deleteSettings = {
  id: 'invite-tracker.delete-settings',
  method: 'DELETE',
  path: '/modules/invite-tracker/settings',
  access: 'client',
  summary: 'Remove all invite-tracker data of a guild and reset the module',
  file: 'functions/invite-tracker/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'invite-tracker.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/invite-tracker/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's invite uses and invites",
  file: 'functions/invite-tracker/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'invite-tracker.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/invite-tracker/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's invite uses and ownership",
  file: 'functions/invite-tracker/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listInvites = {
  id: 'invite-tracker.list-invites',
  method: 'GET',
  path: '/modules/invite-tracker/invites',
  access: 'client',
  summary: 'The invites the service tracks',
  query: guildQuery,
} as const satisfies Route;

export const createInvite = {
  id: 'invite-tracker.create-invite',
  method: 'POST',
  path: '/modules/invite-tracker/invites',
  access: 'client',
  summary: 'Create an invite on the platform',
  body: CreateInviteBody,
  owned: checkOwned,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('The invite was not created.'),
} as const satisfies Route;

export const deleteInvite = {
  id: 'invite-tracker.delete-invite',
  method: 'DELETE',
  path: '/modules/invite-tracker/invites',
  access: 'client',
  summary: 'Delete an invite on the platform',
  body: DeleteInviteBody,
  owned: checkOwned,
  answerFailures: /* @__PURE__ */ answerFailures('The invite was not deleted.'),
} as const satisfies Route;

export const getUses = {
  id: 'invite-tracker.get-uses',
  method: 'GET',
  path: '/modules/invite-tracker/stats/uses',
  access: 'client',
  summary: "An inviter's counted joins",
  query: UsesQuery,
} as const satisfies Route;

export const inviteCreated = {
  id: 'invite-tracker.invite-created',
  method: 'POST',
  path: '/modules/invite-tracker/events/invite/create',
  access: 'internal',
  summary: 'An invite was made on the platform',
  body: InviteCreatedBody,
} as const satisfies Route;

export const inviteDeleted = {
  id: 'invite-tracker.invite-deleted',
  method: 'POST',
  path: '/modules/invite-tracker/events/invite/delete',
  access: 'internal',
  summary: 'An invite was deleted on the platform',
  body: InviteEventBody,
} as const satisfies Route;

export const joinCheck = {
  id: 'invite-tracker.join-check',
  method: 'POST',
  path: '/modules/invite-tracker/events/join/check-invite',
  access: 'internal',
  summary: 'A member joined: attribute the join',
  body: guildBody,
  actor: 'required',
} as const satisfies Route;

export const leaveCheck = {
  id: 'invite-tracker.leave-check',
  method: 'POST',
  path: '/modules/invite-tracker/events/leave/check-invite',
  access: 'internal',
  summary: 'A member left',
  body: guildBody,
  actor: 'required',
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,
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
