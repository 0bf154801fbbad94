import { endpoint } from '#shared/http/endpoint.js';
import { refreshFilter } from './handler-ops.js';
import { ForumFilterBody, MessageAnswer } from './schemas.js';

/** Internal: makes sure a forum community is polled (add) or stops being polled when unwatched (remove). */
export const handler = endpoint({ body: ForumFilterBody, response: MessageAnswer }, ({ body }) =>
  refreshFilter('forum', body.action_type, body.community.ident, body.community.identifier),
);
