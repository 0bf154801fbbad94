import { endpoint } from '#shared/http/endpoint.js';
import { routeFamily } from '#shared/http/route-family.js';
import { deleteEntry } from './entries.js';
import { KIND_LIST, KINDS } from './kinds.js';
import { deleteBody, deletedAnswer } from './schemas.js';
import { entriesPath } from './paths.js';

/** Stops watching a source in every channel of the guild; answers the newest entry and all of them. */
export const handler = routeFamily(
  KIND_LIST.map(({ kind }) => ({
    method: 'DELETE' as const,
    path: entriesPath(kind),
    build: () =>
      endpoint({ body: deleteBody(kind), response: deletedAnswer(kind) }, ({ body }) => {
        const named = body[KINDS[kind].field] as { ident: string; identifier: string };
        return deleteEntry(body.guild_id as string, kind, named.ident, named.identifier);
      }),
  })),
);
