/**
 * Reaction roles through the whole loop: a member reacts on a panel on the
 * sandbox, the sandbox dispatches the reaction, the reference bot calls the
 * service's check, and the member holds the role on the platform.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

it('a reaction on an emoji panel grants its role, and taking it back removes the role', async () => {
  const { service, sandbox } = loop;
  const guild = snowflake();
  const member = snowflake();
  const [channel, role] = await Promise.all([sandbox.channelIn(guild), sandbox.roleIn(guild)]);
  ok(await service.call('POST', '/modules/reactionroles/enable', { body: { guild_id: guild } }));
  const panel = ok(
    await service.call('POST', '/modules/reactionroles/panels', {
      body: {
        guild_id: guild,
        channel_id: channel,
        is_register: false,
        panel_type: 'emoji',
        limit_roles_to_one: false,
        supports_remove: true,
        remove_roles_from_users_on_entry_delete: false,
        keep_counter_at_one: false,
        delete_unrelated_emoji_reactions: false,
        is_embed: false,
        content: 'Pick your roles',
      },
    }),
  ).panel;
  ok(
    await service.call('POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, {
      looseBody: { guild_id: guild, role_ids: [role], emoji_name: '🎉', emoji_id: null, text: null, description: null },
    }),
  );

  await sandbox.react(channel, panel.message_id, '🎉', member);
  expect(await eventually(async () => (await sandbox.roles(guild, member)).includes(role), 15_000, `role ${role}\n${loop.botLines.join('\n')}`)).toBe(true);

  await sandbox.unreact(channel, panel.message_id, '🎉', member);
  expect(await eventually(async () => !(await sandbox.roles(guild, member)).includes(role), 15_000, 'the role removed')).toBe(true);
});

it("a click on a button panel's button grants its role and tells the member", async () => {
  const { service, sandbox } = loop;
  const guild = snowflake();
  const member = snowflake();
  const [channel, role] = [await sandbox.channelIn(guild), await sandbox.roleIn(guild)];
  ok(await service.call('POST', '/modules/reactionroles/enable', { body: { guild_id: guild } }));
  const panel = ok(
    await service.call('POST', '/modules/reactionroles/panels', {
      body: {
        guild_id: guild,
        channel_id: channel,
        is_register: false,
        panel_type: 'button',
        limit_roles_to_one: false,
        supports_remove: true,
        remove_roles_from_users_on_entry_delete: false,
        keep_counter_at_one: false,
        delete_unrelated_emoji_reactions: false,
        is_embed: false,
        content: 'Pick your roles',
      },
    }),
  ).panel;
  ok(
    await service.call('POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, {
      looseBody: { guild_id: guild, role_ids: [role], emoji_name: '🎮', emoji_id: null, text: 'Gamer', description: null },
    }),
  );
  const button = await eventually(
    async () => (await sandbox.message(channel, panel.message_id))?.components?.[0]?.components[0],
    15_000,
    'the button on the panel',
  );

  const { interaction_id } = await loop.act('POST', `/_sandbox/channels/${channel}/messages/${panel.message_id}/click`, {
    user_id: member,
    custom_id: button.custom_id,
  });
  expect(await eventually(async () => (await sandbox.roles(guild, member)).includes(role), 15_000, `role ${role}\n${loop.botLines.join('\n')}`)).toBe(true);
  const told = await eventually(
    async () => {
      const texts = await loop.toldMember(interaction_id);
      return texts.length > 0 && texts;
    },
    15_000,
    'the answer to the member',
  );
  expect(told).toEqual([`You received <@&${role}>.`]);
});
