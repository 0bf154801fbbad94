import { endpoint } from '#shared/http/endpoint.js';
import { rolesOnJoin } from './checks.js';
import { MessageAnswer } from './model.js';
import { GuildBody } from './schemas.js';

/** Internal: a member joined (X-Acting-User-Id); schedule their timed roles and grant the autoroles. */
export const handler = endpoint({ body: GuildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => rolesOnJoin(body.guild_id, actor));
