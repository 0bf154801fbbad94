import { endpoint } from '#shared/http/endpoint.js';
import { routeFamily } from '#shared/http/route-family.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { createEntry } from './entries.js';
import { KIND_LIST, KINDS } from './kinds.js';
import { createBody, entryAnswer } from './schemas.js';
import { entriesPath } from './paths.js';

/** Watches a source in a channel: the source is checked once and what it holds now is never announced. */
export const handler = routeFamily(
  KIND_LIST.map(({ kind }) => ({
    method: 'POST' as const,
    path: entriesPath(kind),
    build: () =>
      endpoint({ body: createBody(kind), owned: checkOwned, response: entryAnswer(kind) }, ({ body }) => {
        const named = body[KINDS[kind].field] as { ident: string; identifier: string };
        return createEntry(body.guild_id as string, kind, {
          ...named,
          target_channel_id: body.target_channel_id as string,
          mention_everyone: body.mention_everyone as boolean,
        });
      }),
  })),
);
