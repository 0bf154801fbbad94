import { endpoint } from '../../shared/http/endpoint.js';
import { closePollDirectly } from './polls.js';
import { HandlerPollBody } from './schemas.js';

export const handler = endpoint({ body: HandlerPollBody }, async ({ body }) => ({ poll: await closePollDirectly(body.guild_id, body.poll_id) }));
