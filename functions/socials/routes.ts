import { type Route, route } from '#shared/http/route.js';
import { routeFamily } from '#shared/http/route-family.js';
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
  SettingsAnswer,
  SettingsBody,
  createBody,
  deleteBody,
  deletedAnswer,
  entryAnswer,
  listAnswer,
  listQuery,
  sendBody,
  ForumFilterBody,
  MessageAnswer,
  StreamFilterBody,
  UploadsQuery,
  UploadsAnswer,
  MemeAnswer,
  MemeSendBody,
} from './schemas.js';
import { KIND_LIST } from './kinds.js';
import { SOCIALS_BASE as base, entriesPath, sendPath } from './paths.js';
import { checkOwned } from '#shared/platform/ownership.js';

const file = (name: string) => `functions/socials/${name}.ts`;

/** The four monitor kinds share one shape: list, create, delete and send each, from the kinds table. */
export const listEntries = routeFamily({
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.list-${kind}`,
    method: 'GET',
    path: entriesPath(kind),
    access: 'client',
    file: file('list-entries'),
    summary: `A guild's ${kind} entries, newest first`,
  }),
  spec: ({ kind }) => ({ query: listQuery(), response: listAnswer(kind) }),
});
export const createEntry = routeFamily({
  members: KIND_LIST,
  row: ({ kind, field }) => ({
    id: `socials.create-${kind}`,
    method: 'POST',
    path: entriesPath(kind),
    access: 'client',
    file: file('create-entry'),
    summary: `Watch a ${kind} (${field}) in a channel`,
  }),
  spec: ({ kind }) => ({ body: createBody(kind), owned: checkOwned, response: entryAnswer(kind) }),
});
export const deleteEntry = routeFamily({
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.delete-${kind}`,
    method: 'DELETE',
    path: entriesPath(kind),
    access: 'client',
    file: file('delete-entry'),
    summary: `Stop watching a ${kind} in every channel of the guild`,
  }),
  spec: ({ kind }) => ({ body: deleteBody(kind), response: deletedAnswer(kind) }),
});
export const sendEntry = routeFamily({
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.send-${kind}`,
    method: 'POST',
    path: sendPath(kind),
    access: 'internal',
    file: file('send-entry'),
    summary: `Announce one new ${kind} item now`,
  }),
  spec: ({ kind }) => ({ body: sendBody(kind), response: MessageAnswer }),
});

export const getSettings = settingsReadRoute('socials', { summary: "A guild's socials settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('socials', { summary: "Change a guild's socials settings", body: SettingsBody, response: SettingsAnswer });
export const deleteSettings = settingsDeleteRoute('socials', {
  summary: 'Remove all socials data of a guild and reset the module',
  path: '/settings/delete',
  response: DeletedSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('socials', 'Count the member data the module keeps (none)');
export const privacyDeleteUserEntries = privacyDeleteRoute('socials', 'Delete the member data the module keeps (none)');

export const forumRefreshFilter = route({
  id: 'socials.forum-refresh-filter',
  method: 'POST',
  path: `${base}/handler/monitor/forum/refresh-filter`,
  access: 'internal',
  summary: 'Make sure a forum community is polled, or no longer',
  body: ForumFilterBody,
  response: MessageAnswer,
});

export const streamRefreshFilter = route({
  id: 'socials.stream-refresh-filter',
  method: 'POST',
  path: `${base}/handler/monitors/stream/refresh-filter`,
  access: 'internal',
  summary: 'Make sure a stream account is polled, or no longer',
  body: StreamFilterBody,
  response: MessageAnswer,
});

export const getUploadsPlaylistId = route({
  id: 'socials.get-uploads-playlist-id',
  method: 'GET',
  path: `${base}/handler/monitors/video/get-uploads-playlist-id`,
  access: 'internal',
  summary: "A video channel's uploads playlist",
  query: UploadsQuery,
  response: UploadsAnswer,
});

export const getMeme = route({
  id: 'socials.get-meme',
  method: 'GET',
  path: `${base}/handler/meme/get`,
  access: 'internal',
  summary: 'A random meme',
  response: MemeAnswer,
});

export const sendMeme = route({
  id: 'socials.send-meme',
  method: 'POST',
  path: `${base}/meme/send`,
  access: 'client',
  summary: 'Edit a message into a random meme',
  body: MemeSendBody,
  owned: checkOwned,
  response: MessageAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('socials'),
  moduleStateRoute(home, 'socials', { operation: 'handler-home', path: '/handler', summary: 'Home of the socials scheduling handler' }),
  getSettings,
  updateSettings,
  deleteSettings,
  // Each kind's four routes together.
  ...KIND_LIST.flatMap((_, at) => [listEntries, createEntry, deleteEntry, sendEntry].map((family) => family.rows[at]!)),
  forumRefreshFilter,
  streamRefreshFilter,
  getUploadsPlaylistId,
  getMeme,
  sendMeme,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
