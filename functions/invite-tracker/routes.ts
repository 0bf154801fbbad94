import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/invite-tracker';
const file = (name: string) => `functions/invite-tracker/${name}.ts`;

const basics = moduleBasicsRoutes('invite-tracker', {
  getSettings: "A guild's invite-tracker settings",
  updateSettings: "Change a guild's invite-tracker settings",
  deleteSettings: 'Remove all invite-tracker data of a guild and reset the module',
  privacyGetUserEntries: "Count a member's invite uses and invites",
  privacyDeleteUserEntries: "Delete a member's invite uses and ownership",
});

export const routes: Route[] = [
  ...moduleStateRoutes('invite-tracker'),
  ...basics.settings,
  {
    id: 'invite-tracker.list-invites',
    method: 'GET',
    path: `${base}/invites`,
    access: 'client',
    file: file('list-invites'),
    summary: 'The invites the service tracks',
  },
  {
    id: 'invite-tracker.create-invite',
    method: 'POST',
    path: `${base}/invites`,
    access: 'client',
    file: file('create-invite'),
    summary: 'Create an invite on the platform',
  },
  {
    id: 'invite-tracker.delete-invite',
    method: 'DELETE',
    path: `${base}/invites`,
    access: 'client',
    file: file('delete-invite'),
    summary: 'Delete an invite on the platform',
  },
  { id: 'invite-tracker.get-uses', method: 'GET', path: `${base}/stats/uses`, access: 'client', file: file('get-uses'), summary: "An inviter's counted joins" },
  {
    id: 'invite-tracker.invite-created',
    method: 'POST',
    path: `${base}/events/invite/create`,
    access: 'internal',
    file: file('invite-created'),
    summary: 'An invite was made on the platform',
  },
  {
    id: 'invite-tracker.invite-deleted',
    method: 'POST',
    path: `${base}/events/invite/delete`,
    access: 'internal',
    file: file('invite-deleted'),
    summary: 'An invite was deleted on the platform',
  },
  {
    id: 'invite-tracker.join-check',
    method: 'POST',
    path: `${base}/events/join/check-invite`,
    access: 'internal',
    file: file('join-check'),
    summary: 'A member joined: attribute the join',
  },
  {
    id: 'invite-tracker.leave-check',
    method: 'POST',
    path: `${base}/events/leave/check-invite`,
    access: 'internal',
    file: file('leave-check'),
    summary: 'A member left',
  },
  ...basics.privacy,
];
