import type { Route } from '#shared/http/route.js';
import { moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/giveaways';
const file = (name: string) => `functions/giveaways/${name}.ts`;
const entry = `${base}/entries/{entry_id}`;

export const routes: Route[] = [
  ...moduleStateRoutes('giveaways'),
  {
    id: 'giveaways.get-settings',
    method: 'GET',
    path: `${base}/settings`,
    access: 'client',
    file: file('get-settings'),
    summary: "A guild's giveaway settings",
  },
  {
    id: 'giveaways.update-settings',
    method: 'PUT',
    path: `${base}/settings`,
    access: 'client',
    file: file('update-settings'),
    summary: "Change a guild's giveaway settings",
  },
  {
    id: 'giveaways.delete-settings',
    method: 'DELETE',
    path: `${base}/settings`,
    access: 'client',
    file: file('delete-settings'),
    summary: 'Remove all giveaway data of a guild and reset the module',
  },
  {
    id: 'giveaways.list-entries',
    method: 'GET',
    path: `${base}/entries`,
    access: 'client',
    file: file('list-entries'),
    summary: "A guild's giveaways, newest first",
  },
  {
    id: 'giveaways.create-entry',
    method: 'POST',
    path: `${base}/entries`,
    access: 'client',
    file: file('create-entry'),
    summary: 'Start a giveaway in a channel',
  },
  { id: 'giveaways.get-entry', method: 'GET', path: entry, access: 'client', file: file('get-entry'), summary: 'One giveaway' },
  { id: 'giveaways.edit-entry', method: 'PUT', path: entry, access: 'client', file: file('edit-entry'), summary: 'Edit a running giveaway (owner only)' },
  {
    id: 'giveaways.delete-entry',
    method: 'DELETE',
    path: entry,
    access: 'client',
    file: file('delete-entry'),
    summary: 'Delete a giveaway and its message (owner only)',
  },
  { id: 'giveaways.enter', method: 'POST', path: `${entry}/enter`, access: 'client', file: file('enter'), summary: 'A member enters' },
  { id: 'giveaways.leave', method: 'POST', path: `${entry}/leave`, access: 'client', file: file('leave'), summary: 'A member leaves' },
  {
    id: 'giveaways.reroll',
    method: 'POST',
    path: `${entry}/reroll`,
    access: 'client',
    file: file('reroll'),
    summary: 'Draw the next round after the end (owner only)',
  },
  {
    id: 'giveaways.privacy-get-user-entries',
    method: 'GET',
    path: `${base}/privacy/get-user-entries`,
    access: 'internal',
    file: file('privacy-get-user-entries'),
    summary: "Count a member's entries, wins and hosted giveaways",
  },
  {
    id: 'giveaways.privacy-delete-user-entries',
    method: 'DELETE',
    path: `${base}/privacy/delete-user-entries`,
    access: 'internal',
    file: file('privacy-delete-user-entries'),
    summary: "Remove a member's entries, wins and hosting",
  },
];
