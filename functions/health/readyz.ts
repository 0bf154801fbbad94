import { setTimeout as delay } from 'node:timers/promises';
import { entity } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { databaseFailed } from '#shared/errors.js';
import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

/** An item nobody writes: reading it (absent, eventually consistent) is the cheapest request the table answers. */
const Probe = entity({ name: 'health', prefix: 'HEALTH', pk: () => 'HEALTH', parse: () => null });

/** How long the read may take before the table counts as unreachable. */
const READY_WITHIN_MS = 2000;

/** Ready when one read of the table answers within two seconds. */
export const handler = endpoint(routes.readyz, async () => {
  const timer = new AbortController();
  try {
    await Promise.race([
      Probe.get({}, { consistent: false }),
      delay(READY_WITHIN_MS, undefined, { signal: timer.signal }).then(() => Promise.reject(new Error('the table did not answer in time'))),
    ]);
  } catch {
    throw databaseFailed(`The table '${tableName()}' is not reachable.`, 5);
  } finally {
    timer.abort();
  }
  return { status: 'ok' as const };
});
