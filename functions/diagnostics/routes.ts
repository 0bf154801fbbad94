import { type RouteFamily, rowsOf } from '#shared/http/route-family.js';
import { guildQuery } from '#shared/http/schemas.js';
import { MODULES, type ModuleName } from '#shared/modules/names.js';

/**
 * `GET /modules/<module>/diagnostics` of every module (behaviour §17): one
 * row per module, served by one handler that reads the module's needs from
 * ./needs.ts. A guild API key may read its own guild's, as settings.
 */
export const diagnostics = {
  members: MODULES,
  row: (module) => ({
    id: `${module}.diagnostics`,
    method: 'GET',
    path: `/modules/${module}/diagnostics`,
    access: 'client',
    file: 'functions/diagnostics/diagnose-module.ts',
    summary: `What would stop ${module} from working in a guild`,
  }),
  spec: () => ({ query: guildQuery }),
} satisfies RouteFamily<ModuleName>;

export const routes = /* @__PURE__ */ rowsOf(diagnostics);
