import type { Route } from '#shared/http/route.js';
import type { ModuleName } from '#shared/modules/names.js';

/** The four state routes every module has: home, status, enable, disable (contract 5). */
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
