import { endpoint } from '#shared/http/endpoint.js';
import { getGiveawayRecord } from './giveaways.js';
import { EntryAnswer, EntryPath, EntryQuery } from './schemas.js';

export const handler = endpoint({ path: EntryPath, query: EntryQuery, response: EntryAnswer }, ({ path, query }) =>
  getGiveawayRecord(query.guild_id, path.entry_id),
);
