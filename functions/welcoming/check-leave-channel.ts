import { endpoint } from '#shared/http/endpoint.js';
import { memberLeft } from './checks.js';
import * as routes from './routes.js';

/** Internal: a member left (X-Acting-User-Id); cancel their timed roles and post the leave message. */
export const handler = endpoint(routes.checkLeaveChannel, ({ body, actor }) => memberLeft(body.guild_id, actor));
