import { endpoint } from '#shared/http/endpoint.js';
import { deleteTimedRole } from './timedroles.js';
import * as routes from './routes.js';

/** Its pending grants are cancelled. */
export const handler = endpoint(routes.deleteTimedrole, ({ body, path }) => deleteTimedRole(body.guild_id, path.timedrole_id));
