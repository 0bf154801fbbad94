import { endpoint } from '#shared/http/endpoint.js';
import { checkTimedRoles } from './checks.js';
import * as routes from './routes.js';

/** Internal: grant the timed roles that are due and catch up members the join checks missed. */
export const handler = endpoint(routes.checkRoleTimed, ({ body }) => checkTimedRoles(body.guild_id));
