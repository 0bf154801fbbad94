import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { InvitesAnswer } from './schemas.js';
import { listInviteRecords } from './tracker.js';

/** The invites the service tracks for the guild, newest first. */
export const handler = endpoint({ query: guildQuery, response: InvitesAnswer }, ({ query }) => listInviteRecords(query.guild_id));
