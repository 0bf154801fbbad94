import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import { enableModule } from '#shared/modules/state.js';

export const handler = endpoint(routes.enable, ({ body, module }) => enableModule(body.guild_id, module!));
