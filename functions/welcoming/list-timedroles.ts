import { endpoint } from '#shared/http/endpoint.js';
import { listTimedRoleRecords } from './timedroles.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.listTimedroles, ({ query }) => listTimedRoleRecords(query.guild_id));
