import type { Route } from '#shared/http/route.js';
import {
  SettingsBody,
  CreateCounterBody,
  CounterPath,
  UpdateCountersBody,
  ChannelBody,
  StarboardBody,
  MessageCheckBody,
  DeletedMessageBody,
} from './schemas.js';
import { FAMILIES, type Family, familyRoute } from './families.js';
import { fetchQuery, recordingBody } from './stats-schemas.js';
import { type RouteFamily, rowsOf } from '#shared/http/route-family.js';
import { guildBody, guildQuery, privacyQuery } from '#shared/http/schemas.js';
import { BatchBody } from './batch-schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { built } from '#shared/built.js';

const file = (name: string) => `functions/serverstats/${name}.ts`;

const statsId = (family: Family) => `serverstats.stats.${family.path.replaceAll('/', '.')}`;

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'serverstats.home',
  method: 'GET',
  path: '/modules/serverstats/',
  access: 'public',
  summary: 'Home of the serverstats module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'serverstats.status',
  method: 'GET',
  path: '/modules/serverstats/status',
  access: 'client',
  summary: 'Whether serverstats is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'serverstats.enable',
  method: 'POST',
  path: '/modules/serverstats/enable',
  access: 'client',
  summary: 'Enable serverstats for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'serverstats.disable',
  method: 'POST',
  path: '/modules/serverstats/disable',
  access: 'client',
  summary: 'Disable serverstats for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

/** The statistic families: a fetch (GET) each, from the one table. */
export const fetchStats = {
  members: FAMILIES,
  row: (family) => ({
    id: `${statsId(family)}.fetch`,
    method: 'GET',
    path: familyRoute(family),
    access: 'client',
    file: file('fetch-stats'),
    summary: `Fetch ${family.path} statistics of the last days`,
  }),
  spec: (family) => ({ query: fetchQuery(family) }),
} satisfies RouteFamily<Family>;

/** Who records: every family (POST), and the voice families, whose sessions are closed (PUT). */
const recordings = /* @__PURE__ */ built(() => [
  ...FAMILIES.map((family) => ({ family, method: 'POST' as const })),
  ...FAMILIES.filter((family) => family.shape.kind === 'voice').map((family) => ({ family, method: 'PUT' as const })),
]);

/** Internal: the recording of a statistic of every family (POST), and the closing of voice sessions (PUT). */
export const recordStat = {
  members: recordings,
  row: ({ family, method }) => ({
    id: `${statsId(family)}.${method === 'POST' ? 'record' : 'close'}`,
    method,
    path: familyRoute(family),
    access: 'internal',
    file: file('record-stat'),
    summary: method === 'POST' ? `Record a ${family.path} statistic` : "Close a member's voice session",
  }),
  spec: ({ family, method }) => ({ body: recordingBody(family, method) }),
} satisfies RouteFamily<(typeof recordings)[number]>;

/** Internal: many recordings of any families in one call (CONTRACT §18); schemas in batch-schemas.ts. */
export const recordBatch = {
  id: 'serverstats.record-batch',
  method: 'POST',
  path: '/modules/serverstats/stats/batch',
  access: 'internal',
  summary: 'Record up to 500 statistics at their event times',
  body: BatchBody,
  // Its packs are written once under the key and the answer kept in one write beside them (batch.ts): no take and keep around it.
  idempotency: 'use-case',
} as const satisfies Route;

export const getSettings = {
  id: 'serverstats.get-settings',
  method: 'GET',
  path: '/modules/serverstats/settings',
  access: 'client',
  summary: "A guild's serverstats settings",
  file: 'functions/serverstats/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'serverstats.update-settings',
  method: 'PUT',
  path: '/modules/serverstats/settings',
  access: 'client',
  summary: "Change a guild's serverstats settings",
  file: 'functions/serverstats/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
  owned: checkOwned,
} as const satisfies Route;
export const deleteSettings = {
  id: 'serverstats.delete-settings',
  method: 'DELETE',
  path: '/modules/serverstats/settings',
  access: 'client',
  summary: 'Remove all serverstats data of a guild and reset the module',
  file: 'functions/serverstats/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'serverstats.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/serverstats/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's statistic records and starboard entries",
  file: 'functions/serverstats/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'serverstats.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/serverstats/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's statistic records and starboard entries",
  file: 'functions/serverstats/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listCounters = {
  id: 'serverstats.list-counters',
  method: 'GET',
  path: '/modules/serverstats/counters',
  access: 'client',
  summary: "A guild's counters",
  query: guildQuery,
} as const satisfies Route;

export const createCounter = {
  id: 'serverstats.create-counter',
  method: 'POST',
  path: '/modules/serverstats/counters',
  access: 'client',
  summary: 'Create a counter channel',
  body: CreateCounterBody,
  owned: checkOwned,
} as const satisfies Route;

export const getCounter = {
  id: 'serverstats.get-counter',
  method: 'GET',
  path: '/modules/serverstats/counters/{counter_id}',
  access: 'client',
  summary: 'One counter',
  params: CounterPath,
  query: guildQuery,
} as const satisfies Route;

export const deleteCounter = {
  id: 'serverstats.delete-counter',
  method: 'DELETE',
  path: '/modules/serverstats/counters/{counter_id}',
  access: 'client',
  summary: 'Delete a counter and its channel',
  params: CounterPath,
  body: guildBody,
} as const satisfies Route;

export const updateCounters = {
  id: 'serverstats.update-counters',
  method: 'POST',
  path: '/modules/serverstats/counters/update',
  access: 'internal',
  summary: 'Refresh counters now, behind the answer',
  body: UpdateCountersBody,
} as const satisfies Route;

export const checkDeleteCounters = {
  id: 'serverstats.check-delete-counters',
  method: 'POST',
  path: '/modules/serverstats/counters/check-delete',
  access: 'internal',
  summary: 'A channel was deleted: drop its counter',
  body: ChannelBody,
} as const satisfies Route;

export const setupStarboard = {
  id: 'serverstats.setup-starboard',
  method: 'POST',
  path: '/modules/serverstats/starboard',
  access: 'client',
  summary: 'Set up the starboard with a channel',
  body: StarboardBody,
  owned: checkOwned,
} as const satisfies Route;

export const starboardCheckAdd = {
  id: 'serverstats.starboard-check-add',
  method: 'POST',
  path: '/modules/serverstats/starboard/check/add',
  access: 'internal',
  summary: 'A star was added to a message',
  body: MessageCheckBody,
  owned: checkOwned,
} as const satisfies Route;

export const starboardCheckRemove = {
  id: 'serverstats.starboard-check-remove',
  method: 'POST',
  path: '/modules/serverstats/starboard/check/remove',
  access: 'internal',
  summary: 'A star was removed from a message',
  body: MessageCheckBody,
  owned: checkOwned,
} as const satisfies Route;

export const starboardCheckDelete = {
  id: 'serverstats.starboard-check-delete',
  method: 'POST',
  path: '/modules/serverstats/starboard/check/delete',
  access: 'internal',
  summary: 'A channel was deleted: was it the starboard channel',
  body: ChannelBody,
} as const satisfies Route;

export const starboardCheckDeletedMessage = {
  id: 'serverstats.starboard-check-deleted-message',
  method: 'POST',
  path: '/modules/serverstats/starboard/check/deleted-message',
  access: 'internal',
  summary: 'A message was deleted: was it starred or a starboard post',
  body: DeletedMessageBody,
} as const satisfies Route;

export const routes: Route[] = /* @__PURE__ */ built(() => [
  home,
  status,
  enable,
  disable,
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
  ...rowsOf(fetchStats),
  ...rowsOf(recordStat),
  recordBatch,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
]);
