import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';

const base = '/modules/welcoming';
const file = (name: string) => `functions/welcoming/${name}.ts`;

const basics = moduleBasicsRoutes('welcoming', {
  getSettings: "A guild's welcoming settings",
  updateSettings: 'Change the welcoming settings given non-null',
  deleteSettings: 'Remove all welcoming data of a guild and reset the module',
  privacyGetUserEntries: "Count a member's pending timed-role grants",
  privacyDeleteUserEntries: "Delete a member's timed-role grants",
});

export const routes: Route[] = [
  ...moduleStateRoutes('welcoming'),

  ...basics.settings,

  {
    id: 'welcoming.list-responses',
    method: 'GET',
    path: `${base}/responses`,
    access: 'client',
    file: file('list-responses'),
    summary: 'Welcome and leave responses, newest first',
  },
  {
    id: 'welcoming.create-response',
    method: 'POST',
    path: `${base}/responses`,
    access: 'client',
    file: file('create-response'),
    summary: 'Add a welcome or leave response',
  },
  {
    id: 'welcoming.get-response',
    method: 'GET',
    path: `${base}/responses/{response_id}`,
    access: 'client',
    file: file('get-response'),
    summary: 'One response',
  },
  {
    id: 'welcoming.delete-response',
    method: 'DELETE',
    path: `${base}/responses/{response_id}`,
    access: 'client',
    file: file('delete-response'),
    summary: 'Delete a response (settings naming it become null)',
  },

  {
    id: 'welcoming.list-timedroles',
    method: 'GET',
    path: `${base}/timedroles`,
    access: 'client',
    file: file('list-timedroles'),
    summary: 'Timed roles, newest first',
  },
  {
    id: 'welcoming.create-timedrole',
    method: 'POST',
    path: `${base}/timedroles`,
    access: 'client',
    file: file('create-timedrole'),
    summary: 'Add a role granted add_after seconds after joining',
  },
  {
    id: 'welcoming.get-timedrole',
    method: 'GET',
    path: `${base}/timedroles/{timedrole_id}`,
    access: 'client',
    file: file('get-timedrole'),
    summary: 'One timed role',
  },
  {
    id: 'welcoming.delete-timedrole',
    method: 'DELETE',
    path: `${base}/timedroles/{timedrole_id}`,
    access: 'client',
    file: file('delete-timedrole'),
    summary: 'Delete a timed role and cancel its pending grants',
  },

  {
    id: 'welcoming.check-welcome-dm',
    method: 'POST',
    path: `${base}/check/welcome/dm`,
    access: 'internal',
    file: file('check-welcome-dm'),
    summary: 'A member joined: welcome them by DM',
  },
  {
    id: 'welcoming.check-welcome-channel',
    method: 'POST',
    path: `${base}/check/welcome/channel`,
    access: 'internal',
    file: file('check-welcome-channel'),
    summary: 'A member joined: welcome them in the welcome channel',
  },
  {
    id: 'welcoming.check-leave-channel',
    method: 'POST',
    path: `${base}/check/leave/channel`,
    access: 'internal',
    file: file('check-leave-channel'),
    summary: 'A member left: leave message, pending timed roles cancelled',
  },
  {
    id: 'welcoming.check-role-on-join',
    method: 'POST',
    path: `${base}/check/role/on-join`,
    access: 'internal',
    file: file('check-role-on-join'),
    summary: 'A member joined: autoroles granted, timed roles scheduled',
  },
  {
    id: 'welcoming.check-role-timed',
    method: 'POST',
    path: `${base}/check/role/timed`,
    access: 'internal',
    file: file('check-role-timed'),
    summary: 'Grant due timed roles and catch up missed members',
  },

  ...basics.privacy,
];
