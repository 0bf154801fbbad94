import { endpoint } from '../../shared/http/endpoint.js';
import { deletePollDirectly } from './polls.js';
import { HandlerPollBody } from './schemas.js';

export const handler = endpoint({ body: HandlerPollBody }, async ({ body }) => ({ poll: await deletePollDirectly(body.guild_id, body.poll_id) }));
