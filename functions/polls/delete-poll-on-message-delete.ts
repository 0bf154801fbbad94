import { endpoint } from '#shared/http/endpoint.js';
import { deletePollOfMessage } from './polls.js';
import { MaybePollAnswer, MessageDeletedBody } from './schemas.js';

/** Internal: a message was deleted; answers the poll it carried (removed), or null when it carried none. */
export const handler = endpoint({ body: MessageDeletedBody, response: MaybePollAnswer }, async ({ body }) => ({
  poll: await deletePollOfMessage(body.guild_id, body.channel_id, body.interacted_message_id),
}));
