import { endpoint } from '#shared/http/endpoint.js';
import { checkInteraction } from './interactions.js';
import * as routes from './routes.js';

/** Internal: the bot reports a member's reaction or component interaction on a panel (X-Acting-User-Id names the member). */
export const handler = endpoint(routes.check, ({ body, actor }) => checkInteraction(body.guild_id, actor, body));
