import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { ListTagsQuery, CreateTagBody, GuildQuery, TagPath, EditTagBody, DeleteTagBody, SendTagBody } from './schemas.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'tags.home',
  method: 'GET',
  path: '/modules/tags/',
  access: 'public',
  summary: 'Home of the tags module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'tags.status',
  method: 'GET',
  path: '/modules/tags/status',
  access: 'client',
  summary: 'Whether tags is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'tags.enable',
  method: 'POST',
  path: '/modules/tags/enable',
  access: 'client',
  summary: 'Enable tags for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'tags.disable',
  method: 'POST',
  path: '/modules/tags/disable',
  access: 'client',
  summary: 'Disable tags for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const deleteSettings = {
  id: 'tags.delete-settings',
  method: 'DELETE',
  path: '/modules/tags/settings',
  access: 'client',
  summary: 'Remove every tag and name of a guild and reset the module',
  file: 'functions/tags/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'tags.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/tags/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's tags",
  file: 'functions/tags/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'tags.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/tags/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's tags",
  file: 'functions/tags/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listEntries = {
  id: 'tags.list-entries',
  method: 'GET',
  path: '/modules/tags/entries',
  access: 'client',
  summary: 'Tags with their names, newest first; name= finds the tag holding a name',
  query: ListTagsQuery,
} as const satisfies Route;

export const createEntry = {
  id: 'tags.create-entry',
  method: 'POST',
  path: '/modules/tags/entries',
  access: 'client',
  summary: 'Create a tag with 1..10 names unique in the guild',
  body: CreateTagBody,
  answerFailures: /* @__PURE__ */ answerFailures('The tag was not created.'),
} as const satisfies Route;

export const getEntry = {
  id: 'tags.get-entry',
  method: 'GET',
  path: '/modules/tags/entries/{entry_id}',
  access: 'client',
  summary: 'One tag with its names',
  query: GuildQuery,
  params: TagPath,
} as const satisfies Route;

export const updateEntry = {
  id: 'tags.update-entry',
  method: 'PUT',
  path: '/modules/tags/entries/{entry_id}',
  access: 'client',
  summary: 'Edit a tag (owner only): fields given non-null; names replace every name',
  body: EditTagBody,
  params: TagPath,
  answerFailures: /* @__PURE__ */ answerFailures('The tag was not changed.'),
} as const satisfies Route;

export const deleteEntry = {
  id: 'tags.delete-entry',
  method: 'DELETE',
  path: '/modules/tags/entries/{entry_id}',
  access: 'client',
  summary: 'Delete a tag (owner only); its names are free again',
  body: DeleteTagBody,
  params: TagPath,
  answerFailures: /* @__PURE__ */ answerFailures('The tag was not deleted.'),
} as const satisfies Route;

export const sendEntry = {
  id: 'tags.send-entry',
  method: 'POST',
  path: '/modules/tags/entries/{entry_id}/send',
  access: 'internal',
  summary: 'Post a tag in a channel or as the answer to an interaction',
  body: SendTagBody,
  owned: checkOwned,
  params: TagPath,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,

  deleteSettings,

  listEntries,
  createEntry,
  getEntry,
  updateEntry,
  deleteEntry,
  sendEntry,

  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
