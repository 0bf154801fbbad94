import { endpoint } from '#shared/http/endpoint.js';
import { TagsPageAnswer } from './model.js';
import { ListTagsQuery } from './schemas.js';
import { listTagRecords } from './tags.js';

/** Newest first, paginated; `name` answers the tag holding that name from its pointer, never a scan. */
export const handler = endpoint({ query: ListTagsQuery, response: TagsPageAnswer }, ({ query }) =>
  listTagRecords(query.guild_id, query.page, query.page_size, query.name),
);
