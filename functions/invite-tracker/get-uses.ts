import { endpoint } from '#shared/http/endpoint.js';
import { UsesAnswer, UsesQuery } from './schemas.js';
import { usesOf } from './tracker.js';

/** The counted joins attributed to an inviter (kept 31 days), newest first, a page at a time. */
export const handler = endpoint({ query: UsesQuery, response: UsesAnswer }, ({ query }) =>
  usesOf(query.guild_id, query.inviter_id, { limit: query.limit, cursor: query.cursor }),
);
