import { familyEndpoint } from '#shared/http/route-family.js';
import { createEntry } from './entries.js';
import { KINDS } from './kinds.js';
import * as routes from './routes.js';

/** Watches a source in a channel: the source is checked once and what it holds now is never announced. */
export const handler = familyEndpoint(routes.createEntry, ({ kind }) => ({ body }) => {
  const named = body[KINDS[kind].field] as { ident: string; identifier: string };
  return createEntry(body.guild_id as string, kind, {
    ...named,
    target_channel_id: body.target_channel_id as string,
    mention_everyone: body.mention_everyone as boolean,
  });
});
