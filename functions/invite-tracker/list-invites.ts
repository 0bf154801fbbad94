import { endpoint } from '#shared/http/endpoint.js';
import { listInviteRecords } from './tracker.js';
import * as routes from './routes.js';

/** The invites the service tracks for the guild, newest first. */
export const handler = endpoint(routes.listInvites, ({ query }) => listInviteRecords(query.guild_id));
