import { type Route, route } from '#shared/http/route.js';
import { home, moduleBasicsRoutes, moduleStateRoute, moduleStateRoutes } from '../module-state/routes.js';
import { KIND_LIST } from './kinds.js';
import { SOCIALS_BASE as base, entriesPath, sendPath } from './paths.js';
import { ForumFilterBody, MessageAnswer, StreamFilterBody, UploadsQuery, UploadsAnswer, MemeAnswer, MemeSendBody } from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';

const file = (name: string) => `functions/socials/${name}.ts`;

/** The four monitor kinds share one shape: list, create, delete and send each, from the kinds table. */
const entryRoutes: Route[] = KIND_LIST.flatMap(({ kind, field }) => [
  {
    id: `socials.list-${kind}`,
    method: 'GET',
    path: entriesPath(kind),
    access: 'client',
    file: file('list-entries'),
    summary: `A guild's ${kind} entries, newest first`,
  },
  {
    id: `socials.create-${kind}`,
    method: 'POST',
    path: entriesPath(kind),
    access: 'client',
    file: file('create-entry'),
    summary: `Watch a ${kind} (${field}) in a channel`,
  },
  {
    id: `socials.delete-${kind}`,
    method: 'DELETE',
    path: entriesPath(kind),
    access: 'client',
    file: file('delete-entry'),
    summary: `Stop watching a ${kind} in every channel of the guild`,
  },
  {
    id: `socials.send-${kind}`,
    method: 'POST',
    path: sendPath(kind),
    access: 'internal',
    file: file('send-entry'),
    summary: `Announce one new ${kind} item now`,
  },
]);

const basics = moduleBasicsRoutes('socials', {
  getSettings: "A guild's socials settings",
  updateSettings: "Change a guild's socials settings",
  deleteSettings: { summary: 'Remove all socials data of a guild and reset the module', path: '/settings/delete' },
  privacyGetUserEntries: 'Count the member data the module keeps (none)',
  privacyDeleteUserEntries: 'Delete the member data the module keeps (none)',
});

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
  ...basics.settings,
  ...entryRoutes,
  forumRefreshFilter,
  streamRefreshFilter,
  getUploadsPlaylistId,
  getMeme,
  sendMeme,
  ...basics.privacy,
];
