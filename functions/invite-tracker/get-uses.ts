import { endpoint } from '#shared/http/endpoint.js';
import { usesOf } from './tracker.js';
import * as routes from './routes.js';

/** The counted joins attributed to an inviter (kept 31 days), newest first, a page at a time. */
export const handler = endpoint(routes.getUses, ({ query }) => usesOf(query.guild_id, query.inviter_id, { limit: query.limit, cursor: query.cursor }));
