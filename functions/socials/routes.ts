import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';
import { type RouteFamily, rowsOf } from '#shared/http/route-family.js';
import { SettingsBody, createBody, deleteBody, listQuery, sendBody, ForumFilterBody, StreamFilterBody, UploadsQuery, MemeSendBody } from './schemas.js';
import { KIND_LIST, type KindSpec } from './kinds.js';
import { entriesPath, sendPath } from './paths.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { built } from '#shared/built.js';

const file = (name: string) => `functions/socials/${name}.ts`;

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'socials.home',
  method: 'GET',
  path: '/modules/socials/',
  access: 'public',
  summary: 'Home of the socials module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'socials.status',
  method: 'GET',
  path: '/modules/socials/status',
  access: 'client',
  summary: 'Whether socials is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'socials.enable',
  method: 'POST',
  path: '/modules/socials/enable',
  access: 'client',
  summary: 'Enable socials for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'socials.disable',
  method: 'POST',
  path: '/modules/socials/disable',
  access: 'client',
  summary: 'Disable socials for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;
export const handlerHome = {
  id: 'socials.handler-home',
  method: 'GET',
  path: '/modules/socials/handler',
  access: 'public',
  summary: 'Home of the socials scheduling handler',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;

/** The four monitor kinds share one shape: list, create, delete and send each, from the kinds table. */
export const listEntries = {
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.list-${kind}`,
    method: 'GET',
    path: entriesPath(kind),
    access: 'client',
    file: file('list-entries'),
    summary: `A guild's ${kind} entries, newest first`,
  }),
  spec: () => ({ query: listQuery() }),
} satisfies RouteFamily<KindSpec>;
export const createEntry = {
  members: KIND_LIST,
  row: ({ kind, field }) => ({
    id: `socials.create-${kind}`,
    method: 'POST',
    path: entriesPath(kind),
    access: 'client',
    file: file('create-entry'),
    summary: `Watch a ${kind} (${field}) in a channel`,
  }),
  spec: ({ kind }) => ({ body: createBody(kind), owned: checkOwned }),
} satisfies RouteFamily<KindSpec>;
export const deleteEntry = {
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.delete-${kind}`,
    method: 'DELETE',
    path: entriesPath(kind),
    access: 'client',
    file: file('delete-entry'),
    summary: `Stop watching a ${kind} in every channel of the guild`,
  }),
  spec: ({ kind }) => ({ body: deleteBody(kind) }),
} satisfies RouteFamily<KindSpec>;
export const sendEntry = {
  members: KIND_LIST,
  row: ({ kind }) => ({
    id: `socials.send-${kind}`,
    method: 'POST',
    path: sendPath(kind),
    access: 'internal',
    file: file('send-entry'),
    summary: `Announce one new ${kind} item now`,
  }),
  spec: ({ kind }) => ({ body: sendBody(kind) }),
} satisfies RouteFamily<KindSpec>;

export const getSettings = {
  id: 'socials.get-settings',
  method: 'GET',
  path: '/modules/socials/settings',
  access: 'client',
  summary: "A guild's socials settings",
  file: 'functions/socials/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'socials.update-settings',
  method: 'PUT',
  path: '/modules/socials/settings',
  access: 'client',
  summary: "Change a guild's socials settings",
  file: 'functions/socials/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
} as const satisfies Route;
export const deleteSettings = {
  id: 'socials.delete-settings',
  method: 'DELETE',
  path: '/modules/socials/settings/delete',
  access: 'client',
  summary: 'Remove all socials data of a guild and reset the module',
  file: 'functions/socials/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'socials.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/socials/privacy/get-user-entries',
  access: 'internal',
  summary: 'Count the member data the module keeps (none)',
  file: 'functions/socials/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'socials.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/socials/privacy/delete-user-entries',
  access: 'internal',
  summary: 'Delete the member data the module keeps (none)',
  file: 'functions/socials/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const forumRefreshFilter = {
  id: 'socials.forum-refresh-filter',
  method: 'POST',
  path: '/modules/socials/handler/monitor/forum/refresh-filter',
  access: 'internal',
  summary: 'Make sure a forum community is polled, or no longer',
  body: ForumFilterBody,
} as const satisfies Route;

export const streamRefreshFilter = {
  id: 'socials.stream-refresh-filter',
  method: 'POST',
  path: '/modules/socials/handler/monitors/stream/refresh-filter',
  access: 'internal',
  summary: 'Make sure a stream account is polled, or no longer',
  body: StreamFilterBody,
} as const satisfies Route;

export const getUploadsPlaylistId = {
  id: 'socials.get-uploads-playlist-id',
  method: 'GET',
  path: '/modules/socials/handler/monitors/video/get-uploads-playlist-id',
  access: 'internal',
  summary: "A video channel's uploads playlist",
  query: UploadsQuery,
} as const satisfies Route;

export const getMeme = {
  id: 'socials.get-meme',
  method: 'GET',
  path: '/modules/socials/handler/meme/get',
  access: 'internal',
  summary: 'A random meme',
} as const satisfies Route;

export const sendMeme = {
  id: 'socials.send-meme',
  method: 'POST',
  path: '/modules/socials/meme/send',
  access: 'client',
  summary: 'Edit a message into a random meme',
  body: MemeSendBody,
  owned: checkOwned,
} as const satisfies Route;

export const routes: Route[] = /* @__PURE__ */ built(() => [
  home,
  status,
  enable,
  disable,
  handlerHome,
  getSettings,
  updateSettings,
  deleteSettings,
  // Each kind's four routes together.
  ...KIND_LIST.flatMap((_, at) => [listEntries, createEntry, deleteEntry, sendEntry].map((family: RouteFamily<KindSpec>) => rowsOf(family)[at]!)),
  forumRefreshFilter,
  streamRefreshFilter,
  getUploadsPlaylistId,
  getMeme,
  sendMeme,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
]);
