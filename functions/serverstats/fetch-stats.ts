import { familyEndpoint } from '#shared/http/route-family.js';
import * as routes from './routes.js';
import { type FetchInput, fetchStats } from './stats.js';

/** A family's records of the last `days` days, newest first, filtered by member and channel where the family allows. */
export const handler = familyEndpoint(
  routes.fetchStats,
  (family) =>
    ({ query }) =>
      fetchStats(family, query as FetchInput),
);
