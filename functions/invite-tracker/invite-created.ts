import { endpoint } from '#shared/http/endpoint.js';
import { InviteCreatedBody, MessageAnswer } from './schemas.js';
import { inviteCreated } from './tracker.js';

/** Internal: an invite was made on the platform; it is recorded with its owner, uses and expiry. */
export const handler = endpoint({ body: InviteCreatedBody, response: MessageAnswer }, ({ body }) =>
  inviteCreated(body.guild_id, body.invite_code, body.channel_id),
);
