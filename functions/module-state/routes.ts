import type { Access, Method, Route } from '#shared/http/route.js';
import type { ModuleName } from '#shared/modules/names.js';

/** The four state routes every module has: home, status, enable, disable (behaviour §5). */
export function moduleStateRoutes(module: ModuleName): Route[] {
  const base = `/modules/${module}`;
  return [
    {
      id: `${module}.home`,
      method: 'GET',
      path: `${base}/`,
      access: 'public',
      file: 'functions/module-state/home.ts',
      summary: `Home of the ${module} module`,
    },
    {
      id: `${module}.status`,
      method: 'GET',
      path: `${base}/status`,
      access: 'client',
      file: 'functions/module-state/status.ts',
      summary: `Whether ${module} is enabled for a guild`,
    },
    {
      id: `${module}.enable`,
      method: 'POST',
      path: `${base}/enable`,
      access: 'client',
      file: 'functions/module-state/enable.ts',
      summary: `Enable ${module} for a guild`,
    },
    {
      id: `${module}.disable`,
      method: 'POST',
      path: `${base}/disable`,
      access: 'client',
      file: 'functions/module-state/disable.ts',
      summary: `Disable ${module} for a guild`,
    },
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
