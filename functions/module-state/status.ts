import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import { moduleStatus } from '#shared/modules/state.js';

export const handler = endpoint(routes.status, ({ query, module }) => moduleStatus(query.guild_id, module!));
