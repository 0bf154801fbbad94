import { endpoint } from '#shared/http/endpoint.js';
import { inviteCreated } from './tracker.js';
import * as routes from './routes.js';

/** Internal: an invite was made on the platform; it is recorded with its owner, uses and expiry. */
export const handler = endpoint(routes.inviteCreated, ({ body }) => inviteCreated(body.guild_id, body.invite_code, body.channel_id));
