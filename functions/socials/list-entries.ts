import { endpoint } from '#shared/http/endpoint.js';
import { routeFamily } from '#shared/http/route-family.js';
import { listKindEntries } from './entries.js';
import { KIND_LIST } from './kinds.js';
import { listAnswer, listQuery } from './schemas.js';
import { entriesPath } from './paths.js';

/** A guild's entries of one kind, newest first, a page at a time. */
export const handler = routeFamily(
  KIND_LIST.map(({ kind }) => ({
    method: 'GET' as const,
    path: entriesPath(kind),
    build: () =>
      endpoint({ query: listQuery(), response: listAnswer(kind) }, ({ query }) => listKindEntries(query.guild_id, kind, query.page, query.page_size)),
  })),
);
