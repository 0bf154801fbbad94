import { endpoint } from '#shared/http/endpoint.js';
import { routeFamily } from '#shared/http/route-family.js';
import { FAMILIES, type Family, familyRoute } from './families.js';
import { type FetchInput, fetchStats } from './stats.js';
import { fetchAnswer, fetchQuery } from './stats-schemas.js';

/** A family's records of the last `days` days, newest first, filtered by member and channel where the family allows. */
const fetcher = (family: Family) => () =>
  endpoint({ query: fetchQuery(family), response: fetchAnswer(family) }, ({ query }) => fetchStats(family, query as FetchInput));

export const handler = routeFamily(FAMILIES.map((family) => ({ method: 'GET' as const, path: familyRoute(family), build: fetcher(family) })));
