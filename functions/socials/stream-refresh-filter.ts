import { endpoint } from '#shared/http/endpoint.js';
import { refreshFilter } from './internal-ops.js';
import * as routes from './routes.js';

/** Internal: makes sure a stream account is polled (add) or stops being polled when unwatched (remove). */
export const handler = endpoint(routes.streamRefreshFilter, ({ body }) =>
  refreshFilter('stream', body.action_type, body.stream_account.ident, body.stream_account.identifier),
);
