import { guildBody, guildQuery } from '#shared/http/schemas.js';
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
 * settings routes and the privacy pair, each served by the export of this
 * name of `functions/<module>/basics.ts` (made by shared/modules/basics/).
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

/** The settings routes a module has (every module has the settings-delete operation), and the privacy pair. */
export interface ModuleBasics {
  getSettings?: BasicRoute;
  updateSettings?: BasicRoute;
  deleteSettings: BasicRoute;
  privacyGetUserEntries: BasicRoute;
  privacyDeleteUserEntries: BasicRoute;
}

/**
 * A module's basic routes, as the route table lists them: `settings` (those
 * it has of get, update, delete) and `privacy` (the pair), so the module
 * places each group in its table.
 */
export function moduleBasicsRoutes(module: ModuleName, declared: ModuleBasics): { settings: Route[]; privacy: Route[] } {
  const route = (basic: Basic): Route[] => {
    const given = declared[basic];
    if (given === undefined) return [];
    const { summary, operation = BASICS[basic].operation, path = BASICS[basic].path } = typeof given === 'string' ? { summary: given } : given;
    const { method, access } = BASICS[basic];
    return [
      { id: `${module}.${operation}`, method, path: `/modules/${module}${path}`, access, file: `functions/${module}/basics.ts`, handler: basic, summary },
    ];
  };
  return {
    settings: [...route('getSettings'), ...route('updateSettings'), ...route('deleteSettings')],
    privacy: [...route('privacyGetUserEntries'), ...route('privacyDeleteUserEntries')],
  };
}
