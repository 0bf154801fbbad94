import { endpoint } from '#shared/http/endpoint.js';
import { getTimedRoleRecord } from './timedroles.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getTimedrole, ({ query, path }) => getTimedRoleRecord(query.guild_id, path.timedrole_id));
