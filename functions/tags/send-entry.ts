import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { sendTag } from './send.js';
import * as routes from './routes.js';

/** Internal. A private tag sent by anyone but its owner is a 403. */
export const handler = endpoint(routes.sendEntry, ({ body, path, caller, actor }) =>
  sendTag(
    body.guild_id,
    path.entry_id,
    { channel_id: body.channel_id, user_mention_id: body.user_mention_id, interaction: interactionOf(body) },
    { caller, actor },
  ),
);
