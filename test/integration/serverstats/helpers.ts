/** What the serverstats tests share: a guild with the module on, and a valid recording for every family shape. */
import { expect } from 'vitest';
import type { Family } from '#functions/serverstats/families.js';
import { ok, snowflake, type TestService } from '#test/helpers/local.js';
export { ok };

export const SS = '/modules/serverstats';

export async function statsGuild(service: TestService): Promise<string> {
  const guild = snowflake();
  const res = await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } });
  expect(res.status, res.text).toBe(200);
  return guild;
}

/** A recording body of the family naming `member` (and `channel` where it has one), and the record fields it should store. */
export function sample(family: Family, guild: string, member: string, channel: string): { body: Record<string, unknown>; record: Record<string, unknown> } {
  const s = family.shape;
  const message = snowflake();
  switch (s.kind) {
    case 'user':
      return { body: { guild_id: guild, [s.from]: member }, record: { user_id: member } };
    case 'member':
      return { body: { guild_id: guild, [s.from]: member }, record: { member_id: member } };
    case 'none':
      return { body: { guild_id: guild }, record: {} };
    case 'number':
      return { body: { guild_id: guild, [s.field]: 12.5 }, record: { [s.field]: 12.5 } };
    case 'statuses':
      return { body: { guild_id: guild, online_count: 3, offline_count: 4, dnd_count: 1 }, record: { online_count: 3, offline_count: 4, dnd_count: 1 } };
    case 'total':
      return { body: { guild_id: guild, current_members: 42 }, record: { current_members: 42 } };
    case 'messages':
      return {
        body: { guild_id: guild, channel_id: channel, author_id: member, message_id: message },
        record: { channel_id: channel, author_id: member, message_id: message },
      };
    case 'commands':
      return { body: { guild_id: guild, initiator_id: member, command: 'tag show' }, record: { user_id: member, command: 'tag show' } };
    case 'trigger-hit':
      return { body: { guild_id: guild, creating_user_id: member, trigger_id: 'greeting' }, record: { triggering_user_id: member, trigger_id: 'greeting' } };
    case 'presence':
      return {
        body: { guild_id: guild, presence_user_id: member, activities: [{ activity_type: 0, name: 'Chess', details: null, state: null }] },
        record: { user_id: member, presence_name: 'Chess', activity_type: 0, end_time: null },
      };
    case 'voice':
      return { body: { guild_id: guild, channel_id: channel, joined_member_id: member }, record: { channel_id: channel, user_id: member, left_at: null } };
  }
}

export const fetchStats = (service: TestService, family: Family, query: Record<string, string | number>) =>
  service.call('GET', `${SS}/stats/${family.path}`, { query });
export const recordStat = (service: TestService, family: Family, body: Record<string, unknown>, method = 'POST') =>
  service.call(method, `${SS}/stats/${family.path}`, { body });
