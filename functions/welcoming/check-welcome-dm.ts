import { endpoint } from '#shared/http/endpoint.js';
import { welcomeByDm } from './checks.js';
import { MessageAnswer } from './model.js';
import { GuildBody } from './schemas.js';

/** Internal: a member joined (X-Acting-User-Id); welcome them by DM. */
export const handler = endpoint({ body: GuildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => welcomeByDm(body.guild_id, actor));
