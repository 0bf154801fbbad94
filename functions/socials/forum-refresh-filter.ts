import { endpoint } from '#shared/http/endpoint.js';
import { refreshFilter } from './internal-ops.js';
import * as routes from './routes.js';

/** Internal: makes sure a forum community is polled (add) or stops being polled when unwatched (remove). */
export const handler = endpoint(routes.forumRefreshFilter, ({ body }) =>
  refreshFilter('forum', body.action_type, body.community.ident, body.community.identifier),
);
