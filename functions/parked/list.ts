import { pageWithin } from '#shared/db/page.js';
import { endpoint } from '#shared/http/endpoint.js';
import { listParked } from '#shared/scheduler/parked.js';
import * as routes from './routes.js';

/** Latest parked first, paginated (behaviour §3.6). */
export const handler = endpoint(routes.list, async ({ query }) => {
  const { items, ...page } = await pageWithin(await listParked(), query, { guildId: '', family: 'parked', filter: {} });
  return { parked: items, ...page };
});
