import { endpoint } from '#shared/http/endpoint.js';
import { inviteDeleted } from './tracker.js';
import * as routes from './routes.js';

/** Internal: an invite was deleted on the platform; it stays a join candidate for 60 seconds. */
export const handler = endpoint(routes.inviteDeleted, ({ body }) => inviteDeleted(body.guild_id, body.invite_code));
