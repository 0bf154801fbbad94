import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';
import { disableModule } from '#shared/modules/state.js';

export const handler = endpoint(routes.disable, ({ body, module }) => disableModule(body.guild_id, module!));
