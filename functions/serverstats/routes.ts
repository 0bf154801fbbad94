import { type Route, route } from '#shared/http/route.js';
import {
  moduleStateRoutes,
  privacyCountRoute,
  privacyDeleteRoute,
  settingsDeleteRoute,
  settingsReadRoute,
  settingsUpdateRoute,
} from '../module-state/routes.js';
import {
  DeletedAnswer,
  SettingsAnswer,
  SettingsBody,
  CountersAnswer,
  CreateCounterBody,
  CounterAnswer,
  CounterPath,
  UpdateCountersBody,
  MessageAnswer,
  ChannelBody,
  StarboardBody,
  MessageCheckBody,
  DeletedMessageBody,
} from './schemas.js';
import { FAMILIES, type Family, familyRoute } from './families.js';
import { RecordedAnswer, fetchAnswer, fetchQuery, recordingBody } from './stats-schemas.js';
import { BatchAnswer, BatchBody } from './batch-schemas.js';
import { routeFamily } from '#shared/http/route-family.js';
import { guildQuery, guildBody } from '#shared/http/schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';

const base = '/modules/serverstats';
const file = (name: string) => `functions/serverstats/${name}.ts`;

/** The statistic families: a fetch (GET) each, from the one table. */
const statsId = (family: Family) => `serverstats.stats.${family.path.replaceAll('/', '.')}`;
export const fetchStats = routeFamily({
  members: FAMILIES,
  row: (family) => ({
    id: `${statsId(family)}.fetch`,
    method: 'GET',
    path: familyRoute(family),
    access: 'client',
    file: file('fetch-stats'),
    summary: `Fetch ${family.path} statistics of the last days`,
  }),
  spec: (family) => ({ query: fetchQuery(family), response: fetchAnswer(family) }),
});

/** Internal: the recording of a statistic of every family (POST), and the closing of voice sessions (PUT). */
export const recordStat = routeFamily({
  members: [
    ...FAMILIES.map((family) => ({ family, method: 'POST' as const })),
    ...FAMILIES.filter((family) => family.shape.kind === 'voice').map((family) => ({ family, method: 'PUT' as const })),
  ],
  row: ({ family, method }) => ({
    id: `${statsId(family)}.${method === 'POST' ? 'record' : 'close'}`,
    method,
    path: familyRoute(family),
    access: 'internal',
    file: file('record-stat'),
    summary: method === 'POST' ? `Record a ${family.path} statistic` : "Close a member's voice session",
  }),
  spec: ({ family, method }) => ({ body: recordingBody(family, method), response: RecordedAnswer }),
});

/** Internal: many recordings of any families in one call (CONTRACT §18); schemas in batch-schemas.ts. */
export const recordBatch = route({
  id: 'serverstats.record-batch',
  method: 'POST',
  path: `${base}/stats/batch`,
  access: 'internal',
  summary: 'Record up to 500 statistics at their event times',
  body: BatchBody,
  response: BatchAnswer,
});

export const getSettings = settingsReadRoute('serverstats', { summary: "A guild's serverstats settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('serverstats', {
  summary: "Change a guild's serverstats settings",
  body: SettingsBody,
  owned: checkOwned,
  response: SettingsAnswer,
});
export const deleteSettings = settingsDeleteRoute('serverstats', {
  summary: 'Remove all serverstats data of a guild and reset the module',
  response: DeletedAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('serverstats', "Count a member's statistic records and starboard entries");
export const privacyDeleteUserEntries = privacyDeleteRoute('serverstats', "Delete a member's statistic records and starboard entries");

export const listCounters = route({
  id: 'serverstats.list-counters',
  method: 'GET',
  path: `${base}/counters`,
  access: 'client',
  summary: "A guild's counters",
  query: guildQuery,
  response: CountersAnswer,
});

export const createCounter = route({
  id: 'serverstats.create-counter',
  method: 'POST',
  path: `${base}/counters`,
  access: 'client',
  summary: 'Create a counter channel',
  body: CreateCounterBody,
  owned: checkOwned,
  response: CounterAnswer,
});

export const getCounter = route({
  id: 'serverstats.get-counter',
  method: 'GET',
  path: `${base}/counters/{counter_id}`,
  access: 'client',
  summary: 'One counter',
  params: CounterPath,
  query: guildQuery,
  response: CounterAnswer,
});

export const deleteCounter = route({
  id: 'serverstats.delete-counter',
  method: 'DELETE',
  path: `${base}/counters/{counter_id}`,
  access: 'client',
  summary: 'Delete a counter and its channel',
  params: CounterPath,
  body: guildBody,
  response: CounterAnswer,
});

export const updateCounters = route({
  id: 'serverstats.update-counters',
  method: 'POST',
  path: `${base}/counters/update`,
  access: 'internal',
  summary: 'Refresh counters now, behind the answer',
  body: UpdateCountersBody,
  response: MessageAnswer,
});

export const checkDeleteCounters = route({
  id: 'serverstats.check-delete-counters',
  method: 'POST',
  path: `${base}/counters/check-delete`,
  access: 'internal',
  summary: 'A channel was deleted: drop its counter',
  body: ChannelBody,
  response: MessageAnswer,
});

export const setupStarboard = route({
  id: 'serverstats.setup-starboard',
  method: 'POST',
  path: `${base}/starboard`,
  access: 'client',
  summary: 'Set up the starboard with a channel',
  body: StarboardBody,
  owned: checkOwned,
  response: MessageAnswer,
});

export const starboardCheckAdd = route({
  id: 'serverstats.starboard-check-add',
  method: 'POST',
  path: `${base}/starboard/check/add`,
  access: 'internal',
  summary: 'A star was added to a message',
  body: MessageCheckBody,
  owned: checkOwned,
  response: MessageAnswer,
});

export const starboardCheckRemove = route({
  id: 'serverstats.starboard-check-remove',
  method: 'POST',
  path: `${base}/starboard/check/remove`,
  access: 'internal',
  summary: 'A star was removed from a message',
  body: MessageCheckBody,
  owned: checkOwned,
  response: MessageAnswer,
});

export const starboardCheckDelete = route({
  id: 'serverstats.starboard-check-delete',
  method: 'POST',
  path: `${base}/starboard/check/delete`,
  access: 'internal',
  summary: 'A channel was deleted: was it the starboard channel',
  body: ChannelBody,
  response: MessageAnswer,
});

export const starboardCheckDeletedMessage = route({
  id: 'serverstats.starboard-check-deleted-message',
  method: 'POST',
  path: `${base}/starboard/check/deleted-message`,
  access: 'internal',
  summary: 'A message was deleted: was it starred or a starboard post',
  body: DeletedMessageBody,
  response: MessageAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('serverstats'),
  getSettings,
  updateSettings,
  deleteSettings,
  listCounters,
  createCounter,
  getCounter,
  deleteCounter,
  updateCounters,
  checkDeleteCounters,
  setupStarboard,
  starboardCheckAdd,
  starboardCheckRemove,
  starboardCheckDelete,
  starboardCheckDeletedMessage,
  ...fetchStats.rows,
  ...recordStat.rows,
  recordBatch,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
