/**
 * Welcoming through the whole loop: a member joins the guild on the sandbox,
 * the reference bot hears GUILD_MEMBER_ADD and asks the service; the welcome
 * shows in the welcome channel and the member holds the autoroles. A leave
 * posts the goodbye.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { snowflake } from '#test/helpers/local.js';
import { addResponse, welcomingGuild, worldOf } from '#test/integration/welcoming/helpers.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

it('a join is welcomed in the welcome channel and given the autoroles; a leave is bid goodbye', async () => {
  const world = worldOf(loop.service);
  const [welcome, leave, role] = [snowflake(), snowflake(), snowflake()];
  const guild = await welcomingGuild(world, {
    welcome_messages_enabled: true,
    welcome_messages_channel: welcome,
    leave_messages_enabled: true,
    leave_messages_channel: leave,
    autorole_enabled: true,
    autorole_role_ids: [role],
  });
  await world.members.nameGuild(guild, 'Tea Club');
  await addResponse(world, guild, 2, 'Welcome <user_name> to <server_name>!');
  await addResponse(world, guild, 3, '<user_name> left.');
  const member = snowflake();
  const messagesIn = async (channel: string) => (await world.members.api<Message[]>(`/channels/${channel}/messages`)).body.map((m) => m.content);

  await world.members.join(guild, member, { username: 'alice', global_name: 'Alice' });
  expect(
    await eventually(async () => (await messagesIn(welcome)).length > 0 && messagesIn(welcome), 15_000, `the welcome\n${loop.botLines.join('\n')}`),
  ).toEqual(['Welcome Alice to Tea Club!']);
  expect(await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 15_000, 'the autorole')).toBe(true);

  await world.members.leave(guild, member);
  expect(await eventually(async () => (await messagesIn(leave)).length > 0 && messagesIn(leave), 15_000, 'the goodbye')).toEqual(['Alice left.']);
});
