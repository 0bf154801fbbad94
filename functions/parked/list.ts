import { paginate } from '#shared/db/pagination.js';
import { endpoint } from '#shared/http/endpoint.js';
import { listParked } from '#shared/scheduler/parked.js';
import { ParkedPageAnswer, ParkedQuery } from './schemas.js';

/** Latest parked first, paginated (behaviour §3.6). */
export const handler = endpoint({ query: ParkedQuery, response: ParkedPageAnswer }, async ({ query }) => {
  const { items, ...page } = paginate(await listParked(), query.page, query.page_size);
  return { parked: items, ...page };
});
