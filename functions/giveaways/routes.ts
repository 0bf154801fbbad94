import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { SettingsBody, CreateBody, EntryPath, EntryQuery, EditBody, ActionBody, ListQuery } from './schemas.js';

import { checkOwned } from '#shared/platform/ownership.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { ParticipantsQuery } from './schemas.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'giveaways.home',
  method: 'GET',
  path: '/modules/giveaways/',
  access: 'public',
  summary: 'Home of the giveaways module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'giveaways.status',
  method: 'GET',
  path: '/modules/giveaways/status',
  access: 'client',
  summary: 'Whether giveaways is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'giveaways.enable',
  method: 'POST',
  path: '/modules/giveaways/enable',
  access: 'client',
  summary: 'Enable giveaways for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'giveaways.disable',
  method: 'POST',
  path: '/modules/giveaways/disable',
  access: 'client',
  summary: 'Disable giveaways for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const getSettings = {
  id: 'giveaways.get-settings',
  method: 'GET',
  path: '/modules/giveaways/settings',
  access: 'client',
  summary: "A guild's giveaway settings",
  file: 'functions/giveaways/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'giveaways.update-settings',
  method: 'PUT',
  path: '/modules/giveaways/settings',
  access: 'client',
  summary: "Change a guild's giveaway settings",
  file: 'functions/giveaways/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
} as const satisfies Route;
export const deleteSettings = {
  id: 'giveaways.delete-settings',
  method: 'DELETE',
  path: '/modules/giveaways/settings',
  access: 'client',
  summary: 'Remove all giveaway data of a guild and reset the module',
  file: 'functions/giveaways/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'giveaways.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/giveaways/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's entries, wins and hosted giveaways",
  file: 'functions/giveaways/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'giveaways.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/giveaways/privacy/delete-user-entries',
  access: 'internal',
  summary: "Remove a member's entries, wins and hosting",
  file: 'functions/giveaways/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listEntries = {
  id: 'giveaways.list-entries',
  method: 'GET',
  path: '/modules/giveaways/entries',
  access: 'client',
  summary: "A page of a guild's giveaways, newest first",
  query: ListQuery,
} as const satisfies Route;

export const createEntry = {
  id: 'giveaways.create-entry',
  method: 'POST',
  path: '/modules/giveaways/entries',
  access: 'client',
  summary: 'Start a giveaway in a channel',
  body: CreateBody,
  owned: checkOwned,
  answerFailures: /* @__PURE__ */ answerFailures('The giveaway was not created.'),
} as const satisfies Route;

export const getEntry = {
  id: 'giveaways.get-entry',
  method: 'GET',
  path: '/modules/giveaways/entries/{entry_id}',
  access: 'client',
  summary: 'One giveaway',
  params: EntryPath,
  query: EntryQuery,
} as const satisfies Route;

export const editEntry = {
  id: 'giveaways.edit-entry',
  method: 'PUT',
  path: '/modules/giveaways/entries/{entry_id}',
  access: 'client',
  summary: 'Edit a running giveaway (owner only)',
  params: EntryPath,
  body: EditBody,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('The giveaway was not edited.'),
} as const satisfies Route;

export const deleteEntry = {
  id: 'giveaways.delete-entry',
  method: 'DELETE',
  path: '/modules/giveaways/entries/{entry_id}',
  access: 'client',
  summary: 'Delete a giveaway and its message (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('The giveaway was not deleted.'),
} as const satisfies Route;

export const enter = {
  id: 'giveaways.enter',
  method: 'POST',
  path: '/modules/giveaways/entries/{entry_id}/enter',
  access: 'client',
  summary: 'A member enters',
  params: EntryPath,
  body: ActionBody,
  actor: 'required',
  answerFailures: /* @__PURE__ */ answerFailures('Your entry was not recorded.'),
} as const satisfies Route;

export const leave = {
  id: 'giveaways.leave',
  method: 'POST',
  path: '/modules/giveaways/entries/{entry_id}/leave',
  access: 'client',
  summary: 'A member leaves',
  params: EntryPath,
  body: ActionBody,
  actor: 'required',
  answerFailures: /* @__PURE__ */ answerFailures('Your leaving was not recorded.'),
} as const satisfies Route;

export const reroll = {
  id: 'giveaways.reroll',
  method: 'POST',
  path: '/modules/giveaways/entries/{entry_id}/reroll',
  access: 'client',
  summary: 'Draw the next round after the end (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('The giveaway was not rerolled.'),
} as const satisfies Route;

export const endEntry = {
  id: 'giveaways.end-entry',
  method: 'POST',
  path: '/modules/giveaways/entries/{entry_id}/end',
  access: 'client',
  summary: 'End a running giveaway now: its winners are drawn as at its end time (owner only)',
  params: EntryPath,
  body: ActionBody,
  actor: 'optional',
  answerFailures: /* @__PURE__ */ answerFailures('The giveaway was not ended.'),
} as const satisfies Route;

export const listParticipants = {
  id: 'giveaways.list-participants',
  method: 'GET',
  path: '/modules/giveaways/entries/{entry_id}/participants',
  access: 'client',
  summary: "A page of a giveaway's entrants, in numeric order",
  params: EntryPath,
  query: ParticipantsQuery,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,
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
