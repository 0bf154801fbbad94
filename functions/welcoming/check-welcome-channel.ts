import { endpoint } from '#shared/http/endpoint.js';
import { welcomeInChannel } from './checks.js';
import * as routes from './routes.js';

/** Internal: a member joined (X-Acting-User-Id); welcome them in the welcome channel. */
export const handler = endpoint(routes.checkWelcomeChannel, ({ body, actor }) => welcomeInChannel(body.guild_id, actor));
