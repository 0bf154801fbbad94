/**
 * The invite tracker through the whole loop: an invite made on the platform
 * reaches the service through INVITE_CREATE, a member joins through it on
 * the sandbox, the bot asks for the join's attribution, and the join message
 * names the invite in the guild's channel.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Message } from '#shared/platform/types.js';
import { ok, snowflake } from '#test/helpers/local.js';
import { membersOf } from '#test/integration/welcoming/members-sandbox.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

it('a join through an invite made on the platform is attributed to that invite in the join message', async () => {
  const { service, sandbox } = loop;
  const guild = snowflake();
  const [channel, joins] = [await sandbox.channelIn(guild), await sandbox.channelIn(guild)];
  ok(await service.call('POST', '/modules/invite-tracker/enable', { body: { guild_id: guild } }));
  ok(
    await service.call('PUT', '/modules/invite-tracker/settings', {
      body: { guild_id: guild, join_messages_enabled: true, join_messages_channel: joins, join_message_content: 'Joined through <invite_code>' },
    }),
  );
  // Someone with the right makes an invite on the platform itself, not through the service.
  const made = await fetch(`${service.sandboxUrl}/channels/${channel}/invites`, {
    method: 'POST',
    headers: { authorization: `Bot ${service.platformBotToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ max_age: 0, max_uses: 0 }),
  });
  const { code } = (await made.json()) as { code: string };
  await eventually(
    async () =>
      ok(await service.call('GET', '/modules/invite-tracker/invites', { query: { guild_id: guild } })).invites.some(
        (i: { invite_id: string }) => i.invite_id === code,
      ),
    15_000,
    `the invite known to the service\n${loop.botLines.join('\n')}`,
  );

  await loop.act('POST', `/_sandbox/guilds/${guild}/members/${snowflake()}/join-via-invite/${code}`, {});
  const posted = await eventually(
    async () => {
      const shown = (await membersOf(service).api<Message[]>(`/channels/${joins}/messages`)).body.map((m) => m.content);
      return shown.length > 0 && shown;
    },
    15_000,
    `the join message\n${loop.botLines.join('\n')}`,
  );
  expect(posted).toEqual([`Joined through ${code}`]);
});
