import { type Route, route } from '#shared/http/route.js';
import { moduleStateRoutes, privacyCountRoute, privacyDeleteRoute, settingsDeleteRoute } from '../module-state/routes.js';
import {
  ListPanelsQuery,
  PanelsPage,
  CreatePanelBody,
  PanelAnswer,
  PanelPath,
  EditPanelBody,
  DeletedPanelAnswer,
  EntriesAnswer,
  AddEntryBody,
  EntryAnswer,
  EntryPath,
  EditEntryBody,
  CheckBody,
  CheckAnswer,
  CheckDeleteBody,
  RemovedAnswer,
} from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { guildQuery, guildBody } from '#shared/http/schemas.js';

const base = '/modules/reactionroles';
const panel = `${base}/panel/{reactionrole_panel_id}`;
const entry = `${panel}/entries/{reactionrole_entry_id}`;

export const deleteSettings = settingsDeleteRoute('reactionroles', {
  summary: 'Delete every panel, entry and claim of a guild and reset the module',
  operation: 'delete-module',
  path: '/delete',
  response: RemovedAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('reactionroles', { summary: 'Count the records referring to a member', operation: 'privacy-get' });
export const privacyDeleteUserEntries = privacyDeleteRoute('reactionroles', { summary: "Delete a member's claims", operation: 'privacy-delete' });

export const listPanels = route({
  id: 'reactionroles.list-panels',
  method: 'GET',
  path: `${base}/panels`,
  access: 'client',
  summary: "List a guild's reaction-role panels, newest first",
  query: ListPanelsQuery,
  response: PanelsPage,
});

export const createPanel = route({
  id: 'reactionroles.create-panel',
  method: 'POST',
  path: `${base}/panels`,
  access: 'client',
  summary: 'Create a panel: post a new message, or register an existing one as an emoji panel',
  body: CreatePanelBody,
  owned: checkOwned,
  response: PanelAnswer,
});

export const getPanel = route({
  id: 'reactionroles.get-panel',
  method: 'GET',
  path: panel,
  access: 'client',
  summary: 'Get a panel',
  params: PanelPath,
  query: guildQuery,
  response: PanelAnswer,
});

export const editPanel = route({
  id: 'reactionroles.edit-panel',
  method: 'PUT',
  path: panel,
  access: 'client',
  summary: "Change a panel's settings, type and message text",
  params: PanelPath,
  body: EditPanelBody,
  response: PanelAnswer,
});

export const deletePanel = route({
  id: 'reactionroles.delete-panel',
  method: 'DELETE',
  path: panel,
  access: 'client',
  summary: 'Delete a panel and its entries (and its message when the service wrote it)',
  params: PanelPath,
  body: guildBody,
  response: DeletedPanelAnswer,
});

export const listEntries = route({
  id: 'reactionroles.list-entries',
  method: 'GET',
  path: `${panel}/entries`,
  access: 'client',
  summary: "List a panel's entries in the order the message shows them",
  params: PanelPath,
  query: guildQuery,
  response: EntriesAnswer,
});

export const addEntry = route({
  id: 'reactionroles.add-entry',
  method: 'POST',
  path: `${panel}/entries`,
  access: 'client',
  summary: 'Add an entry to a panel',
  params: PanelPath,
  body: AddEntryBody,
  owned: checkOwned,
  response: EntryAnswer,
});

export const getEntry = route({
  id: 'reactionroles.get-entry',
  method: 'GET',
  path: entry,
  access: 'client',
  summary: 'Get an entry',
  params: EntryPath,
  query: guildQuery,
  response: EntryAnswer,
});

export const deleteEntry = route({
  id: 'reactionroles.delete-entry',
  method: 'DELETE',
  path: entry,
  access: 'client',
  summary: 'Delete an entry (and its roles from members, when the panel says so)',
  params: EntryPath,
  body: guildBody,
  response: EntryAnswer,
});

export const editEntry = route({
  id: 'reactionroles.edit-entry',
  method: 'PUT',
  path: entry,
  access: 'client',
  summary: "Change an entry's roles, text and description",
  params: EntryPath,
  body: EditEntryBody,
  owned: checkOwned,
  response: EntryAnswer,
});

export const check = route({
  id: 'reactionroles.check',
  method: 'POST',
  path: `${base}/check`,
  access: 'internal',
  summary: "Handle a member's reaction or component interaction with a panel",
  body: CheckBody,
  actor: 'required',
  response: CheckAnswer,
});

export const checkDelete = route({
  id: 'reactionroles.check-delete',
  method: 'POST',
  path: `${base}/panel/check-delete`,
  access: 'internal',
  summary: 'Drop the panels of a deleted message or channel',
  body: CheckDeleteBody,
  response: RemovedAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('reactionroles'),
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
