import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/giveaways';
const file = (name: string) => `functions/giveaways/${name}.ts`;
const entry = `${base}/entries/{entry_id}`;

const basics = moduleBasicsRoutes('giveaways', {
  getSettings: "A guild's giveaway settings",
  updateSettings: "Change a guild's giveaway settings",
  deleteSettings: 'Remove all giveaway data of a guild and reset the module',
  privacyGetUserEntries: "Count a member's entries, wins and hosted giveaways",
  privacyDeleteUserEntries: "Remove a member's entries, wins and hosting",
});

export const routes: Route[] = [
  ...moduleStateRoutes('giveaways'),
  ...basics.settings,
  {
    id: 'giveaways.list-entries',
    method: 'GET',
    path: `${base}/entries`,
    access: 'client',
    file: file('list-entries'),
    summary: "A page of a guild's giveaways, newest first",
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
  {
    id: 'giveaways.list-participants',
    method: 'GET',
    path: `${entry}/participants`,
    access: 'client',
    file: file('list-participants'),
    summary: "A page of a giveaway's entrants, in numeric order",
  },
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
  ...basics.privacy,
];
