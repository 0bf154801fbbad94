import { endpoint } from '#shared/http/endpoint.js';
import { rolesOnJoin } from './checks.js';
import * as routes from './routes.js';

/** Internal: a member joined (X-Acting-User-Id); schedule their timed roles and grant the autoroles. */
export const handler = endpoint(routes.checkRoleOnJoin, ({ body, actor }) => rolesOnJoin(body.guild_id, actor));
