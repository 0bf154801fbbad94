import { endpoint } from '#shared/http/endpoint.js';
import { createTimedRole } from './timedroles.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.createTimedrole, ({ body: { guild_id, ...input } }) => createTimedRole(guild_id, input));
