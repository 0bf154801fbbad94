import { endpoint } from '#shared/http/endpoint.js';
import { checkLeave } from './tracker.js';
import * as routes from './routes.js';

/** Internal: a member (X-Acting-User-Id) left; their latest join is marked as left, and the leave message posted. */
export const handler = endpoint(routes.leaveCheck, ({ body, actor }) => checkLeave(body.guild_id, actor));
