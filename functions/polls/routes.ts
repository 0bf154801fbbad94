import type { Route } from '#shared/http/route.js';
import { home, moduleBasicsRoutes, moduleStateRoute, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/polls';
const file = (name: string) => `functions/polls/${name}.ts`;

const basics = moduleBasicsRoutes('polls', {
  getSettings: "A guild's poll settings",
  updateSettings: "Change a guild's poll settings",
  deleteSettings: { summary: 'Remove all poll data of a guild and reset the module', path: '/settings/delete' },
  privacyGetUserEntries: "Count a member's votes and owned polls",
  privacyDeleteUserEntries: "Delete a member's votes and owner references",
});

export const routes: Route[] = [
  ...moduleStateRoutes('polls'),
  moduleStateRoute(home, 'polls', { operation: 'handler-home', path: '/handler', summary: 'Home of the polls scheduling handler' }),

  ...basics.settings,

  { id: 'polls.list-polls', method: 'GET', path: `${base}/entries`, access: 'client', file: file('list-polls'), summary: "A guild's polls, newest first" },
  { id: 'polls.create-poll', method: 'POST', path: `${base}/entries`, access: 'client', file: file('create-poll'), summary: 'Create a poll in a channel' },
  { id: 'polls.get-poll', method: 'GET', path: `${base}/entry/{poll_id}`, access: 'client', file: file('get-poll'), summary: 'One poll with its counts' },
  {
    id: 'polls.list-voters',
    method: 'GET',
    path: `${base}/entry/{poll_id}/voters`,
    access: 'client',
    file: file('list-voters'),
    summary: "A page of a poll's voters, in member order",
  },
  {
    id: 'polls.edit-poll',
    method: 'PUT',
    path: `${base}/entry/{poll_id}`,
    access: 'client',
    file: file('edit-poll'),
    summary: 'Edit an open service poll (owner only)',
  },
  {
    id: 'polls.delete-poll',
    method: 'DELETE',
    path: `${base}/entry/{poll_id}`,
    access: 'client',
    file: file('delete-poll'),
    summary: 'Delete a poll and its message (owner only)',
  },
  {
    id: 'polls.close-poll',
    method: 'POST',
    path: `${base}/entry/{poll_id}/close`,
    access: 'client',
    file: file('close-poll'),
    summary: 'Close a poll and show its results (owner only)',
  },
  { id: 'polls.vote', method: 'POST', path: `${base}/entry/vote`, access: 'internal', file: file('vote'), summary: 'A member votes or takes a vote back' },
  {
    id: 'polls.delete-poll-on-message-delete',
    method: 'DELETE',
    path: `${base}/entry/delete-poll-on-message-delete`,
    access: 'internal',
    file: file('delete-poll-on-message-delete'),
    summary: "A message was deleted: remove its poll's data",
  },

  {
    id: 'polls.handler-create',
    method: 'POST',
    path: `${base}/handler/create`,
    access: 'internal',
    file: file('handler-create'),
    summary: 'Register a poll with explicit times',
  },
  { id: 'polls.handler-edit', method: 'POST', path: `${base}/handler/edit`, access: 'internal', file: file('handler-edit'), summary: 'Edit a poll directly' },
  {
    id: 'polls.handler-close',
    method: 'POST',
    path: `${base}/handler/close`,
    access: 'internal',
    file: file('handler-close'),
    summary: 'Close a poll directly',
  },
  {
    id: 'polls.handler-vote',
    method: 'POST',
    path: `${base}/handler/vote`,
    access: 'internal',
    file: file('handler-vote'),
    summary: 'Vote on a poll directly',
  },
  {
    id: 'polls.handler-delete',
    method: 'DELETE',
    path: `${base}/handler/delete`,
    access: 'internal',
    file: file('handler-delete'),
    summary: 'Delete a poll directly',
  },

  ...basics.privacy,
];
