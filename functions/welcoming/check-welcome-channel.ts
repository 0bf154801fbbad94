import { endpoint } from '#shared/http/endpoint.js';
import { welcomeInChannel } from './checks.js';
import { MessageAnswer } from './model.js';
import { GuildBody } from './schemas.js';

/** Internal: a member joined (X-Acting-User-Id); welcome them in the welcome channel. */
export const handler = endpoint({ body: GuildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => welcomeInChannel(body.guild_id, actor));
