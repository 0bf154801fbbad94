import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/reactionroles';
const panel = `${base}/panel/{reactionrole_panel_id}`;
const entry = `${panel}/entries/{reactionrole_entry_id}`;
const file = (operation: string) => `functions/reactionroles/${operation}.ts`;

const basics = moduleBasicsRoutes('reactionroles', {
  deleteSettings: { summary: 'Delete every panel, entry and claim of a guild and reset the module', operation: 'delete-module', path: '/delete' },
  privacyGetUserEntries: { summary: 'Count the records referring to a member', operation: 'privacy-get' },
  privacyDeleteUserEntries: { summary: "Delete a member's claims", operation: 'privacy-delete' },
});

export const routes: Route[] = [
  ...moduleStateRoutes('reactionroles'),
  ...basics.settings,
  {
    id: 'reactionroles.list-panels',
    method: 'GET',
    path: `${base}/panels`,
    access: 'client',
    file: file('list-panels'),
    summary: "List a guild's reaction-role panels, newest first",
  },
  {
    id: 'reactionroles.create-panel',
    method: 'POST',
    path: `${base}/panels`,
    access: 'client',
    file: file('create-panel'),
    summary: 'Create a panel: post a new message, or register an existing one as an emoji panel',
  },
  { id: 'reactionroles.get-panel', method: 'GET', path: panel, access: 'client', file: file('get-panel'), summary: 'Get a panel' },
  {
    id: 'reactionroles.edit-panel',
    method: 'PUT',
    path: panel,
    access: 'client',
    file: file('edit-panel'),
    summary: "Change a panel's settings, type and message text",
  },
  {
    id: 'reactionroles.delete-panel',
    method: 'DELETE',
    path: panel,
    access: 'client',
    file: file('delete-panel'),
    summary: 'Delete a panel and its entries (and its message when the service wrote it)',
  },
  {
    id: 'reactionroles.list-entries',
    method: 'GET',
    path: `${panel}/entries`,
    access: 'client',
    file: file('list-entries'),
    summary: "List a panel's entries in the order the message shows them",
  },
  { id: 'reactionroles.add-entry', method: 'POST', path: `${panel}/entries`, access: 'client', file: file('add-entry'), summary: 'Add an entry to a panel' },
  { id: 'reactionroles.get-entry', method: 'GET', path: entry, access: 'client', file: file('get-entry'), summary: 'Get an entry' },
  {
    id: 'reactionroles.delete-entry',
    method: 'DELETE',
    path: entry,
    access: 'client',
    file: file('delete-entry'),
    summary: 'Delete an entry (and its roles from members, when the panel says so)',
  },
  {
    id: 'reactionroles.edit-entry',
    method: 'PUT',
    path: entry,
    access: 'client',
    file: file('edit-entry'),
    summary: "Change an entry's roles, text and description",
  },
  {
    id: 'reactionroles.check',
    method: 'POST',
    path: `${base}/check`,
    access: 'internal',
    file: file('check'),
    summary: "Handle a member's reaction or component interaction with a panel",
  },
  {
    id: 'reactionroles.check-delete',
    method: 'POST',
    path: `${base}/panel/check-delete`,
    access: 'internal',
    file: file('check-delete'),
    summary: 'Drop the panels of a deleted message or channel',
  },
  ...basics.privacy,
];
