import { endpoint } from '#shared/http/endpoint.js';
import { refreshFilter } from './handler-ops.js';
import { MessageAnswer, StreamFilterBody } from './schemas.js';

/** Internal: makes sure a stream account is polled (add) or stops being polled when unwatched (remove). */
export const handler = endpoint({ body: StreamFilterBody, response: MessageAnswer }, ({ body }) =>
  refreshFilter('stream', body.action_type, body.stream_account.ident, body.stream_account.identifier),
);
