import { endpoint } from '#shared/http/endpoint.js';
import { TagAnswer } from './model.js';
import { GuildQuery, TagPath } from './schemas.js';
import { getTagRecord } from './tags.js';

export const handler = endpoint({ query: GuildQuery, path: TagPath, response: TagAnswer }, ({ query, path }) => getTagRecord(query.guild_id, path.entry_id));
