import { endpoint } from '#shared/http/endpoint.js';
import { checkJoin } from './tracker.js';
import * as routes from './routes.js';

/** Internal: a member (X-Acting-User-Id) joined; the join is attributed and recorded, and the join message posted. */
export const handler = endpoint(routes.joinCheck, ({ body, actor }) => checkJoin(body.guild_id, actor));
