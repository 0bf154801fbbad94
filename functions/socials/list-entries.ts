import { familyEndpoint } from '#shared/http/route-family.js';
import { listKindEntries } from './entries.js';
import * as routes from './routes.js';

/** A guild's entries of one kind, newest first, a page at a time. */
export const handler = familyEndpoint(
  routes.listEntries,
  ({ kind }) =>
    ({ query }) =>
      listKindEntries(query.guild_id, kind, query),
);
