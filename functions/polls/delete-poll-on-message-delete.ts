import { endpoint } from '#shared/http/endpoint.js';
import { deletePollOfMessage } from './polls.js';
import * as routes from './routes.js';

/** Internal: a message was deleted; answers the poll it carried (removed), or null when it carried none. */
export const handler = endpoint(routes.deletePollOnMessageDelete, async ({ body }) => ({
  poll: await deletePollOfMessage(body.guild_id, body.channel_id, body.interacted_message_id),
}));
