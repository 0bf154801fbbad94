/**
 * Invite uses stored as the join checks store them, many at once, for the
 * tests that need a guild with thousands of them (removals behind a delete,
 * the dashboard's filtered list).
 */
import { type InviteUse, useItems } from '#functions/invite-tracker/store.js';
import { snowflake } from './local.js';
import { putAll } from './seed.js';

/** `n` exact joins through invite `code` of `inviter` in the last hour, one member each, ids from `firstId` on; answers the members. */
export async function seedInviteUses(guild: string, inviter: string, code: string, n: number, firstId = 1_000_000): Promise<string[]> {
  const start = Date.now() - 3_600_000;
  const members = Array.from({ length: n }, snowflake);
  const uses = members.map(
    (member, i): InviteUse => ({
      id: firstId + i,
      guild_id: guild,
      invite_id: code,
      member_id: member,
      timestamp: new Date(start + i).toISOString(),
      channel_id: null,
      inviter_id: inviter,
      has_left: false,
      attribution: 'exact',
      counted: true,
    }),
  );
  await putAll(uses.flatMap((use) => Object.values(useItems(use))));
  return members;
}
