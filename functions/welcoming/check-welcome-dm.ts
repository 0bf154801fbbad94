import { endpoint } from '#shared/http/endpoint.js';
import { welcomeByDm } from './checks.js';
import * as routes from './routes.js';

/** Internal: a member joined (X-Acting-User-Id); welcome them by DM. */
export const handler = endpoint(routes.checkWelcomeDm, ({ body, actor }) => welcomeByDm(body.guild_id, actor));
