import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { SettingsBody, ListResponsesQuery, CreateResponseBody, GuildQuery, ResponsePath, GuildBody, CreateTimedRoleBody, TimedRolePath } from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'welcoming.home',
  method: 'GET',
  path: '/modules/welcoming/',
  access: 'public',
  summary: 'Home of the welcoming module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'welcoming.status',
  method: 'GET',
  path: '/modules/welcoming/status',
  access: 'client',
  summary: 'Whether welcoming is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'welcoming.enable',
  method: 'POST',
  path: '/modules/welcoming/enable',
  access: 'client',
  summary: 'Enable welcoming for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'welcoming.disable',
  method: 'POST',
  path: '/modules/welcoming/disable',
  access: 'client',
  summary: 'Disable welcoming for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const getSettings = {
  id: 'welcoming.get-settings',
  method: 'GET',
  path: '/modules/welcoming/settings',
  access: 'client',
  summary: "A guild's welcoming settings",
  file: 'functions/welcoming/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'welcoming.update-settings',
  method: 'PUT',
  path: '/modules/welcoming/settings',
  access: 'client',
  summary: 'Change the welcoming settings given non-null',
  file: 'functions/welcoming/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
  owned: checkOwned,
} as const satisfies Route;
export const deleteSettings = {
  id: 'welcoming.delete-settings',
  method: 'DELETE',
  path: '/modules/welcoming/settings',
  access: 'client',
  summary: 'Remove all welcoming data of a guild and reset the module',
  file: 'functions/welcoming/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'welcoming.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/welcoming/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's pending timed-role grants",
  file: 'functions/welcoming/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'welcoming.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/welcoming/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's timed-role grants",
  file: 'functions/welcoming/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listResponses = {
  id: 'welcoming.list-responses',
  method: 'GET',
  path: '/modules/welcoming/responses',
  access: 'client',
  summary: 'Welcome and leave responses, newest first',
  query: ListResponsesQuery,
} as const satisfies Route;

export const createResponse = {
  id: 'welcoming.create-response',
  method: 'POST',
  path: '/modules/welcoming/responses',
  access: 'client',
  summary: 'Add a welcome or leave response',
  body: CreateResponseBody,
} as const satisfies Route;

export const getResponse = {
  id: 'welcoming.get-response',
  method: 'GET',
  path: '/modules/welcoming/responses/{response_id}',
  access: 'client',
  summary: 'One response',
  query: GuildQuery,
  params: ResponsePath,
} as const satisfies Route;

export const deleteResponse = {
  id: 'welcoming.delete-response',
  method: 'DELETE',
  path: '/modules/welcoming/responses/{response_id}',
  access: 'client',
  summary: 'Delete a response (settings naming it become null)',
  body: GuildBody,
  params: ResponsePath,
} as const satisfies Route;

export const listTimedroles = {
  id: 'welcoming.list-timedroles',
  method: 'GET',
  path: '/modules/welcoming/timedroles',
  access: 'client',
  summary: 'Timed roles, newest first',
  query: GuildQuery,
} as const satisfies Route;

export const createTimedrole = {
  id: 'welcoming.create-timedrole',
  method: 'POST',
  path: '/modules/welcoming/timedroles',
  access: 'client',
  summary: 'Add a role granted add_after seconds after joining',
  body: CreateTimedRoleBody,
  owned: checkOwned,
} as const satisfies Route;

export const getTimedrole = {
  id: 'welcoming.get-timedrole',
  method: 'GET',
  path: '/modules/welcoming/timedroles/{timedrole_id}',
  access: 'client',
  summary: 'One timed role',
  query: GuildQuery,
  params: TimedRolePath,
} as const satisfies Route;

export const deleteTimedrole = {
  id: 'welcoming.delete-timedrole',
  method: 'DELETE',
  path: '/modules/welcoming/timedroles/{timedrole_id}',
  access: 'client',
  summary: 'Delete a timed role and cancel its pending grants',
  body: GuildBody,
  params: TimedRolePath,
} as const satisfies Route;

export const checkWelcomeDm = {
  id: 'welcoming.check-welcome-dm',
  method: 'POST',
  path: '/modules/welcoming/check/welcome/dm',
  access: 'internal',
  summary: 'A member joined: welcome them by DM',
  body: GuildBody,
  actor: 'required',
} as const satisfies Route;

export const checkWelcomeChannel = {
  id: 'welcoming.check-welcome-channel',
  method: 'POST',
  path: '/modules/welcoming/check/welcome/channel',
  access: 'internal',
  summary: 'A member joined: welcome them in the welcome channel',
  body: GuildBody,
  actor: 'required',
} as const satisfies Route;

export const checkLeaveChannel = {
  id: 'welcoming.check-leave-channel',
  method: 'POST',
  path: '/modules/welcoming/check/leave/channel',
  access: 'internal',
  summary: 'A member left: leave message, pending timed roles cancelled',
  body: GuildBody,
  actor: 'required',
} as const satisfies Route;

export const checkRoleOnJoin = {
  id: 'welcoming.check-role-on-join',
  method: 'POST',
  path: '/modules/welcoming/check/role/on-join',
  access: 'internal',
  summary: 'A member joined: autoroles granted, timed roles scheduled',
  body: GuildBody,
  actor: 'required',
} as const satisfies Route;

export const checkRoleTimed = {
  id: 'welcoming.check-role-timed',
  method: 'POST',
  path: '/modules/welcoming/check/role/timed',
  access: 'internal',
  summary: 'Grant due timed roles and catch up missed members',
  body: GuildBody,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,

  getSettings,
  updateSettings,
  deleteSettings,

  listResponses,
  createResponse,
  getResponse,
  deleteResponse,

  listTimedroles,
  createTimedrole,
  getTimedrole,
  deleteTimedrole,

  checkWelcomeDm,
  checkWelcomeChannel,
  checkLeaveChannel,
  checkRoleOnJoin,
  checkRoleTimed,

  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
