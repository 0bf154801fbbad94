import { familyEndpoint } from '#shared/http/route-family.js';
import { deleteEntry } from './entries.js';
import { KINDS } from './kinds.js';
import * as routes from './routes.js';

/** Stops watching a source in every channel of the guild; answers the newest entry and all of them. */
export const handler = familyEndpoint(routes.deleteEntry, ({ kind }) => ({ body }) => {
  const named = body[KINDS[kind].field] as { ident: string; identifier: string };
  return deleteEntry(body.guild_id as string, kind, named.ident, named.identifier);
});
