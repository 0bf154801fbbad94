/**
 * The privacy pair every module has (behaviour §5), internal and in any module
 * state: each is one endpoint made here from its row and the function the
 * module declares in `functions/<module>/basics.ts`, so a module says only how it
 * counts and removes a member's references. Apart from the settings makers,
 * so a module that stores nothing of members bundles no store.
 */
import { type Handler, endpoint } from '#shared/http/endpoint.js';
import type { RouteSpec } from '#shared/http/route.js';
import type { privacyQuery } from '#shared/http/schemas.js';

/** A privacy route's row: its `privacyQuery` schema as the query or the body. */
type Row<K extends 'query' | 'body'> = RouteSpec & { id: string } & { [key in K]: typeof privacyQuery };

/**
 * `GET .../privacy/get-user-entries`, internal, in any module state: `id`
 * counts the module's records holding the member's ID (what `count`
 * answers). No module keeps members' names, so each name count is 0.
 */
export function privacyCountEndpoint(row: Row<'query'>, count: (guildId: string, memberId: string) => Promise<number> | number): Handler {
  return endpoint(row, async ({ query }) => ({
    username: 0,
    display_name: 0,
    global_name: 0,
    nickname: 0,
    id: await count(query.guild_id, query.privacy_member_id),
  }));
}

/** `DELETE .../privacy/delete-user-entries`, internal, in any module state: `remove` deletes or anonymises the member's references and says what it did. */
export function privacyDeleteEndpoint(row: Row<'body'>, remove: (guildId: string, memberId: string) => Promise<string> | string): Handler {
  return endpoint(row, async ({ body }) => ({ message: await remove(body.guild_id, body.privacy_member_id) }));
}
