import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/tags';
const file = (name: string) => `functions/tags/${name}.ts`;

const basics = moduleBasicsRoutes('tags', {
  deleteSettings: 'Remove every tag and name of a guild and reset the module',
  privacyGetUserEntries: "Count a member's tags",
  privacyDeleteUserEntries: "Delete a member's tags",
});

export const routes: Route[] = [
  ...moduleStateRoutes('tags'),

  ...basics.settings,

  {
    id: 'tags.list-entries',
    method: 'GET',
    path: `${base}/entries`,
    access: 'client',
    file: file('list-entries'),
    summary: 'Tags with their names, newest first; name= finds the tag holding a name',
  },
  {
    id: 'tags.create-entry',
    method: 'POST',
    path: `${base}/entries`,
    access: 'client',
    file: file('create-entry'),
    summary: 'Create a tag with 1..10 names unique in the guild',
  },
  { id: 'tags.get-entry', method: 'GET', path: `${base}/entries/{entry_id}`, access: 'client', file: file('get-entry'), summary: 'One tag with its names' },
  {
    id: 'tags.update-entry',
    method: 'PUT',
    path: `${base}/entries/{entry_id}`,
    access: 'client',
    file: file('update-entry'),
    summary: 'Edit a tag (owner only): fields given non-null; names replace every name',
  },
  {
    id: 'tags.delete-entry',
    method: 'DELETE',
    path: `${base}/entries/{entry_id}`,
    access: 'client',
    file: file('delete-entry'),
    summary: 'Delete a tag (owner only); its names are free again',
  },
  {
    id: 'tags.send-entry',
    method: 'POST',
    path: `${base}/entries/{entry_id}/send`,
    access: 'internal',
    file: file('send-entry'),
    summary: 'Post a tag in a channel or as the answer to an interaction',
  },

  ...basics.privacy,
];
