import { guildBody, guildQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

/**
 * The four state routes every module has (behaviour §5), as the rows their
 * handler files read. Each module lists its own copies of them in its
 * `routes.ts` (`polls.home`, ...: the same schemas and `file`, its own id,
 * path and summary), served by these files.
 */
export const home = { id: 'module-state.home', method: 'GET', path: '/', access: 'public', summary: 'Home of a module' } as const satisfies Route;
export const status = {
  id: 'module-state.status',
  method: 'GET',
  path: '/status',
  access: 'client',
  summary: 'Whether a module is enabled for a guild',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'module-state.enable',
  method: 'POST',
  path: '/enable',
  access: 'client',
  summary: 'Enable a module for a guild',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'module-state.disable',
  method: 'POST',
  path: '/disable',
  access: 'client',
  summary: 'Disable a module for a guild',
  body: guildBody,
} as const satisfies Route;
