import type { Route } from '#shared/http/route.js';
import { moduleBasicsRoutes, moduleStateRoutes } from '../module-state/routes.js';
import { FAMILIES, familyRoute } from './families.js';

const base = '/modules/serverstats';
const file = (name: string) => `functions/serverstats/${name}.ts`;

/** The statistic families: a fetch (GET) and a recording (POST; voice also PUT) each, from the one table. */
const statsRoutes: Route[] = FAMILIES.flatMap((family) => {
  const id = `serverstats.stats.${family.path.replaceAll('/', '.')}`;
  const routes: Route[] = [
    {
      id: `${id}.fetch`,
      method: 'GET',
      path: familyRoute(family),
      access: 'client',
      file: file('fetch-stats'),
      summary: `Fetch ${family.path} statistics of the last days`,
    },
    {
      id: `${id}.record`,
      method: 'POST',
      path: familyRoute(family),
      access: 'internal',
      file: file('record-stat'),
      summary: `Record a ${family.path} statistic`,
    },
  ];
  if (family.shape.kind === 'voice') {
    routes.push({
      id: `${id}.close`,
      method: 'PUT',
      path: familyRoute(family),
      access: 'internal',
      file: file('record-stat'),
      summary: "Close a member's voice session",
    });
  }
  return routes;
});

const basics = moduleBasicsRoutes('serverstats', {
  getSettings: "A guild's serverstats settings",
  updateSettings: "Change a guild's serverstats settings",
  deleteSettings: 'Remove all serverstats data of a guild and reset the module',
  privacyGetUserEntries: "Count a member's statistic records and starboard entries",
  privacyDeleteUserEntries: "Delete a member's statistic records and starboard entries",
});

export const routes: Route[] = [
  ...moduleStateRoutes('serverstats'),
  ...basics.settings,
  { id: 'serverstats.list-counters', method: 'GET', path: `${base}/counters`, access: 'client', file: file('list-counters'), summary: "A guild's counters" },
  {
    id: 'serverstats.create-counter',
    method: 'POST',
    path: `${base}/counters`,
    access: 'client',
    file: file('create-counter'),
    summary: 'Create a counter channel',
  },
  { id: 'serverstats.get-counter', method: 'GET', path: `${base}/counters/{counter_id}`, access: 'client', file: file('get-counter'), summary: 'One counter' },
  {
    id: 'serverstats.delete-counter',
    method: 'DELETE',
    path: `${base}/counters/{counter_id}`,
    access: 'client',
    file: file('delete-counter'),
    summary: 'Delete a counter and its channel',
  },
  {
    id: 'serverstats.update-counters',
    method: 'POST',
    path: `${base}/counters/update`,
    access: 'internal',
    file: file('update-counters'),
    summary: 'Refresh counters now, behind the answer',
  },
  {
    id: 'serverstats.check-delete-counters',
    method: 'POST',
    path: `${base}/counters/check-delete`,
    access: 'internal',
    file: file('check-delete-counters'),
    summary: 'A channel was deleted: drop its counter',
  },
  {
    id: 'serverstats.setup-starboard',
    method: 'POST',
    path: `${base}/starboard`,
    access: 'client',
    file: file('setup-starboard'),
    summary: 'Set up the starboard with a channel',
  },
  {
    id: 'serverstats.starboard-check-add',
    method: 'POST',
    path: `${base}/starboard/check/add`,
    access: 'internal',
    file: file('starboard-check-add'),
    summary: 'A star was added to a message',
  },
  {
    id: 'serverstats.starboard-check-remove',
    method: 'POST',
    path: `${base}/starboard/check/remove`,
    access: 'internal',
    file: file('starboard-check-remove'),
    summary: 'A star was removed from a message',
  },
  {
    id: 'serverstats.starboard-check-delete',
    method: 'POST',
    path: `${base}/starboard/check/delete`,
    access: 'internal',
    file: file('starboard-check-delete'),
    summary: 'A channel was deleted: was it the starboard channel',
  },
  {
    id: 'serverstats.starboard-check-deleted-message',
    method: 'POST',
    path: `${base}/starboard/check/deleted-message`,
    access: 'internal',
    file: file('starboard-check-deleted-message'),
    summary: 'A message was deleted: was it starred or a starboard post',
  },
  ...statsRoutes,
  ...basics.privacy,
];
