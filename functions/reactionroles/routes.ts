import { privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { ListPanelsQuery, CreatePanelBody, PanelPath, EditPanelBody, AddEntryBody, EntryPath, EditEntryBody, CheckBody, CheckDeleteBody } from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { guildQuery, guildBody } from '#shared/http/schemas.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'reactionroles.home',
  method: 'GET',
  path: '/modules/reactionroles/',
  access: 'public',
  summary: 'Home of the reactionroles module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'reactionroles.status',
  method: 'GET',
  path: '/modules/reactionroles/status',
  access: 'client',
  summary: 'Whether reactionroles is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'reactionroles.enable',
  method: 'POST',
  path: '/modules/reactionroles/enable',
  access: 'client',
  summary: 'Enable reactionroles for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'reactionroles.disable',
  method: 'POST',
  path: '/modules/reactionroles/disable',
  access: 'client',
  summary: 'Disable reactionroles for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const deleteSettings = {
  id: 'reactionroles.delete-module',
  method: 'DELETE',
  path: '/modules/reactionroles/delete',
  access: 'client',
  summary: 'Delete every panel, entry and claim of a guild and reset the module',
  file: 'functions/reactionroles/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'reactionroles.privacy-get',
  method: 'GET',
  path: '/modules/reactionroles/privacy/get-user-entries',
  access: 'internal',
  summary: 'Count the records referring to a member',
  file: 'functions/reactionroles/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'reactionroles.privacy-delete',
  method: 'DELETE',
  path: '/modules/reactionroles/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's claims",
  file: 'functions/reactionroles/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listPanels = {
  id: 'reactionroles.list-panels',
  method: 'GET',
  path: '/modules/reactionroles/panels',
  access: 'client',
  summary: "List a guild's reaction-role panels, newest first",
  query: ListPanelsQuery,
} as const satisfies Route;

export const createPanel = {
  id: 'reactionroles.create-panel',
  method: 'POST',
  path: '/modules/reactionroles/panels',
  access: 'client',
  summary: 'Create a panel: post a new message, or register an existing one as an emoji panel',
  body: CreatePanelBody,
  owned: checkOwned,
} as const satisfies Route;

export const getPanel = {
  id: 'reactionroles.get-panel',
  method: 'GET',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}',
  access: 'client',
  summary: 'Get a panel',
  params: PanelPath,
  query: guildQuery,
} as const satisfies Route;

export const editPanel = {
  id: 'reactionroles.edit-panel',
  method: 'PUT',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}',
  access: 'client',
  summary: "Change a panel's settings, type and message text",
  params: PanelPath,
  body: EditPanelBody,
} as const satisfies Route;

export const deletePanel = {
  id: 'reactionroles.delete-panel',
  method: 'DELETE',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}',
  access: 'client',
  summary: 'Delete a panel and its entries (and its message when the service wrote it)',
  params: PanelPath,
  body: guildBody,
} as const satisfies Route;

export const listEntries = {
  id: 'reactionroles.list-entries',
  method: 'GET',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}/entries',
  access: 'client',
  summary: "List a panel's entries in the order the message shows them",
  params: PanelPath,
  query: guildQuery,
} as const satisfies Route;

export const addEntry = {
  id: 'reactionroles.add-entry',
  method: 'POST',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}/entries',
  access: 'client',
  summary: 'Add an entry to a panel',
  params: PanelPath,
  body: AddEntryBody,
  owned: checkOwned,
} as const satisfies Route;

export const getEntry = {
  id: 'reactionroles.get-entry',
  method: 'GET',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}/entries/{reactionrole_entry_id}',
  access: 'client',
  summary: 'Get an entry',
  params: EntryPath,
  query: guildQuery,
} as const satisfies Route;

export const deleteEntry = {
  id: 'reactionroles.delete-entry',
  method: 'DELETE',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}/entries/{reactionrole_entry_id}',
  access: 'client',
  summary: 'Delete an entry (and its roles from members, when the panel says so)',
  params: EntryPath,
  body: guildBody,
} as const satisfies Route;

export const editEntry = {
  id: 'reactionroles.edit-entry',
  method: 'PUT',
  path: '/modules/reactionroles/panel/{reactionrole_panel_id}/entries/{reactionrole_entry_id}',
  access: 'client',
  summary: "Change an entry's roles, text and description",
  params: EntryPath,
  body: EditEntryBody,
  owned: checkOwned,
} as const satisfies Route;

export const check = {
  id: 'reactionroles.check',
  method: 'POST',
  path: '/modules/reactionroles/check',
  access: 'internal',
  summary: "Handle a member's reaction or component interaction with a panel",
  body: CheckBody,
  actor: 'required',
} as const satisfies Route;

export const checkDelete = {
  id: 'reactionroles.check-delete',
  method: 'POST',
  path: '/modules/reactionroles/panel/check-delete',
  access: 'internal',
  summary: 'Drop the panels of a deleted message or channel',
  body: CheckDeleteBody,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,
  deleteSettings,
  listPanels,
  createPanel,
  getPanel,
  editPanel,
  deletePanel,
  listEntries,
  addEntry,
  getEntry,
  deleteEntry,
  editEntry,
  check,
  checkDelete,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
