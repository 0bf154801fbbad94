import type * as z from 'zod/mini';
import { guildBody, guildQuery, messageAnswer, privacyCounts, privacyQuery } from '#shared/http/schemas.js';
import type { OwnershipCheck } from '#shared/platform/ownership.js';
import { type Access, type Method, type Route, fileOf, route } from '#shared/http/route.js';
import type { ModuleName } from '#shared/modules/names.js';
import { HomeAnswer, SnapshotAnswer, StatusAnswer } from './schemas.js';

/**
 * The four state routes every module has (behaviour §5), as one row each
 * that every module's copy shares (its handler file serves them all): the
 * module's copies differ in id, path and summary only.
 */
export const home = route({ id: 'module-state.home', method: 'GET', path: '/', access: 'public', summary: 'Home of a module', response: HomeAnswer });
export const status = route({
  id: 'module-state.status',
  method: 'GET',
  path: '/status',
  access: 'client',
  summary: 'Whether a module is enabled for a guild',
  query: guildQuery,
  response: StatusAnswer,
});
export const enable = route({
  id: 'module-state.enable',
  method: 'POST',
  path: '/enable',
  access: 'client',
  summary: 'Enable a module for a guild',
  body: guildBody,
  response: SnapshotAnswer,
});
export const disable = route({
  id: 'module-state.disable',
  method: 'POST',
  path: '/disable',
  access: 'client',
  summary: 'Disable a module for a guild',
  body: guildBody,
  response: SnapshotAnswer,
});

/** A module's copy of a state row: its id, its path under the module, its summary; the file stays the shared one. */
export function moduleStateRoute(row: Route, module: ModuleName, copy: { operation: string; path: string; summary: string }): Route {
  return { ...row, id: `${module}.${copy.operation}`, path: `/modules/${module}${copy.path}`, summary: copy.summary, file: fileOf(row) };
}

/** The four state routes of a module: home, status, enable, disable (behaviour §5). */
export function moduleStateRoutes(module: ModuleName): Route[] {
  return [
    moduleStateRoute(home, module, { operation: 'home', path: '/', summary: `Home of the ${module} module` }),
    moduleStateRoute(status, module, { operation: 'status', path: '/status', summary: `Whether ${module} is enabled for a guild` }),
    moduleStateRoute(enable, module, { operation: 'enable', path: '/enable', summary: `Enable ${module} for a guild` }),
    moduleStateRoute(disable, module, { operation: 'disable', path: '/disable', summary: `Disable ${module} for a guild` }),
  ];
}

/**
 * The basics a module may have besides its state (behaviour §5 and §11): the
 * settings routes and the privacy pair, each served by the export of its
 * name of `functions/<module>/basics.ts` (made by shared/modules/basics/).
 * A module declares each row with the maker of its name below, giving its
 * summary (with the operation of the id or the path where they are not the
 * usual ones) and its own schemas; the rest is the same for every module.
 */
const BASICS = {
  getSettings: { operation: 'get-settings', method: 'GET', path: '/settings', access: 'client' },
  updateSettings: { operation: 'update-settings', method: 'PUT', path: '/settings', access: 'client' },
  deleteSettings: { operation: 'delete-settings', method: 'DELETE', path: '/settings', access: 'client' },
  privacyGetUserEntries: { operation: 'privacy-get-user-entries', method: 'GET', path: '/privacy/get-user-entries', access: 'internal' },
  privacyDeleteUserEntries: { operation: 'privacy-delete-user-entries', method: 'DELETE', path: '/privacy/delete-user-entries', access: 'internal' },
} as const satisfies Record<string, { operation: string; method: Method; path: string; access: Access }>;

type Basic = keyof typeof BASICS;

/** A basic route as its module declares it: its summary, with the operation (of the id) or path where they are not the usual ones. */
type BasicRoute = string | { summary: string; operation?: string; path?: string };

/** What a basic row is besides its schemas: its id, method, path, access, summary, and the export of the module's basics file serving it. */
function basicRow<B extends Basic>(module: ModuleName, basic: B, declared: BasicRoute) {
  const { summary, operation = BASICS[basic].operation, path = BASICS[basic].path } = typeof declared === 'string' ? { summary: declared } : declared;
  const { method, access } = BASICS[basic];
  return { id: `${module}.${operation}`, method, path: `/modules/${module}${path}`, access, summary, file: `functions/${module}/basics.ts`, handler: basic };
}

/** `GET .../settings`: the module's settings record (`response`). */
export function settingsReadRoute<const S extends z.ZodMiniType>(module: ModuleName, declared: Exclude<BasicRoute, string> & { response: S }) {
  return route({ ...basicRow(module, 'getSettings', declared), query: guildQuery, response: declared.response });
}

/** `PUT .../settings`: the settings fields a change may give (`body`, with `guild_id`), `owned` when one names a platform object. */
export function settingsUpdateRoute<const B extends z.ZodMiniType<{ guild_id: string }>, const S extends z.ZodMiniType>(
  module: ModuleName,
  declared: Exclude<BasicRoute, string> & { body: B; owned?: OwnershipCheck; response: S },
) {
  return route({ ...basicRow(module, 'updateSettings', declared), body: declared.body, owned: declared.owned, response: declared.response });
}

/** The settings-delete operation (every module has it): what it answers removed (`response`). */
export function settingsDeleteRoute<const S extends z.ZodMiniType>(module: ModuleName, declared: Exclude<BasicRoute, string> & { response: S }) {
  return route({ ...basicRow(module, 'deleteSettings', declared), body: guildBody, response: declared.response });
}

/** `GET .../privacy/get-user-entries`: the counts of a member's references. */
export function privacyCountRoute(module: ModuleName, declared: BasicRoute) {
  return route({ ...basicRow(module, 'privacyGetUserEntries', declared), query: privacyQuery, response: privacyCounts });
}

/** `DELETE .../privacy/delete-user-entries`: removes a member's references, saying what it did. */
export function privacyDeleteRoute(module: ModuleName, declared: BasicRoute) {
  return route({ ...basicRow(module, 'privacyDeleteUserEntries', declared), body: privacyQuery, response: messageAnswer });
}
