import { type Route, route } from '#shared/http/route.js';
import {
  moduleStateRoutes,
  privacyCountRoute,
  privacyDeleteRoute,
  settingsDeleteRoute,
  settingsReadRoute,
  settingsUpdateRoute,
} from '../module-state/routes.js';
import { DeleteSettingsAnswer, SettingsAnswer, ResponsesAnswer, ResponseAnswer, TimedRolesAnswer, TimedRoleAnswer, MessageAnswer } from './model.js';
import { SettingsBody, ListResponsesQuery, CreateResponseBody, GuildQuery, ResponsePath, GuildBody, CreateTimedRoleBody, TimedRolePath } from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';

const base = '/modules/welcoming';

export const getSettings = settingsReadRoute('welcoming', { summary: "A guild's welcoming settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('welcoming', {
  summary: 'Change the welcoming settings given non-null',
  body: SettingsBody,
  owned: checkOwned,
  response: SettingsAnswer,
});
export const deleteSettings = settingsDeleteRoute('welcoming', {
  summary: 'Remove all welcoming data of a guild and reset the module',
  response: DeleteSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('welcoming', "Count a member's pending timed-role grants");
export const privacyDeleteUserEntries = privacyDeleteRoute('welcoming', "Delete a member's timed-role grants");

export const listResponses = route({
  id: 'welcoming.list-responses',
  method: 'GET',
  path: `${base}/responses`,
  access: 'client',
  summary: 'Welcome and leave responses, newest first',
  query: ListResponsesQuery,
  response: ResponsesAnswer,
});

export const createResponse = route({
  id: 'welcoming.create-response',
  method: 'POST',
  path: `${base}/responses`,
  access: 'client',
  summary: 'Add a welcome or leave response',
  body: CreateResponseBody,
  response: ResponseAnswer,
});

export const getResponse = route({
  id: 'welcoming.get-response',
  method: 'GET',
  path: `${base}/responses/{response_id}`,
  access: 'client',
  summary: 'One response',
  query: GuildQuery,
  params: ResponsePath,
  response: ResponseAnswer,
});

export const deleteResponse = route({
  id: 'welcoming.delete-response',
  method: 'DELETE',
  path: `${base}/responses/{response_id}`,
  access: 'client',
  summary: 'Delete a response (settings naming it become null)',
  body: GuildBody,
  params: ResponsePath,
  response: ResponseAnswer,
});

export const listTimedroles = route({
  id: 'welcoming.list-timedroles',
  method: 'GET',
  path: `${base}/timedroles`,
  access: 'client',
  summary: 'Timed roles, newest first',
  query: GuildQuery,
  response: TimedRolesAnswer,
});

export const createTimedrole = route({
  id: 'welcoming.create-timedrole',
  method: 'POST',
  path: `${base}/timedroles`,
  access: 'client',
  summary: 'Add a role granted add_after seconds after joining',
  body: CreateTimedRoleBody,
  owned: checkOwned,
  response: TimedRoleAnswer,
});

export const getTimedrole = route({
  id: 'welcoming.get-timedrole',
  method: 'GET',
  path: `${base}/timedroles/{timedrole_id}`,
  access: 'client',
  summary: 'One timed role',
  query: GuildQuery,
  params: TimedRolePath,
  response: TimedRoleAnswer,
});

export const deleteTimedrole = route({
  id: 'welcoming.delete-timedrole',
  method: 'DELETE',
  path: `${base}/timedroles/{timedrole_id}`,
  access: 'client',
  summary: 'Delete a timed role and cancel its pending grants',
  body: GuildBody,
  params: TimedRolePath,
  response: TimedRoleAnswer,
});

export const checkWelcomeDm = route({
  id: 'welcoming.check-welcome-dm',
  method: 'POST',
  path: `${base}/check/welcome/dm`,
  access: 'internal',
  summary: 'A member joined: welcome them by DM',
  body: GuildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const checkWelcomeChannel = route({
  id: 'welcoming.check-welcome-channel',
  method: 'POST',
  path: `${base}/check/welcome/channel`,
  access: 'internal',
  summary: 'A member joined: welcome them in the welcome channel',
  body: GuildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const checkLeaveChannel = route({
  id: 'welcoming.check-leave-channel',
  method: 'POST',
  path: `${base}/check/leave/channel`,
  access: 'internal',
  summary: 'A member left: leave message, pending timed roles cancelled',
  body: GuildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const checkRoleOnJoin = route({
  id: 'welcoming.check-role-on-join',
  method: 'POST',
  path: `${base}/check/role/on-join`,
  access: 'internal',
  summary: 'A member joined: autoroles granted, timed roles scheduled',
  body: GuildBody,
  actor: 'required',
  response: MessageAnswer,
});

export const checkRoleTimed = route({
  id: 'welcoming.check-role-timed',
  method: 'POST',
  path: `${base}/check/role/timed`,
  access: 'internal',
  summary: 'Grant due timed roles and catch up missed members',
  body: GuildBody,
  response: MessageAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('welcoming'),

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
