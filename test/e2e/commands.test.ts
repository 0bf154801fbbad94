/**
 * The reference bot's commands through the whole loop (CONTRACT 17): the bot
 * registers them at start; a member runs them on the sandbox (typing an
 * autocompleted option first), the bot carries them to the service, and the
 * member sees the answer; each run is a `commands/used` statistic; a command
 * of a disabled module answers the member and calls nothing; `/poll` and
 * `/giveaway` are the platform's to refuse to members without Manage Guild.
 */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok, snowflake } from '#test/helpers/local.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

const MANAGE_GUILD = String(PermissionFlagsBits.ManageGuild);

/** A guild with `modules` enabled, a channel, a member and a member holding a role with Manage Guild. */
async function guildWith(...modules: string[]) {
  const guild = snowflake();
  const channel = await loop.sandbox.channelIn(guild);
  for (const module of modules) ok(await loop.service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } }));
  const managers = snowflake();
  await loop.act('PUT', `/_sandbox/guilds/${guild}/roles/${managers}`, { name: 'Managers', permissions: MANAGE_GUILD });
  const member = snowflake();
  const manager = snowflake();
  await loop.act('POST', `/_sandbox/guilds/${guild}/members/${member}/join`, {});
  await loop.act('POST', `/_sandbox/guilds/${guild}/members/${manager}/join`, { roles: [managers] });
  return { guild, channel, member, manager };
}

const run = (guild: string, name: string, body: Record<string, unknown>) =>
  loop.act('POST', `/_sandbox/guilds/${guild}/commands/${encodeURIComponent(name)}/run`, body) as Promise<{ interaction_id: string }>;

/** What the member was shown, once the bot (or the service) answered. */
const told = (interactionId: string, what: string) =>
  eventually(
    async () => {
      const texts = await loop.toldMember(interactionId);
      return texts.length > 0 && texts;
    },
    15_000,
    `${what}\n${loop.botLines.join('\n')}`,
  );

/** The autocomplete choices the bot answered (callback 8). */
const choices = (interactionId: string) =>
  eventually(
    async () => {
      const { answers } = await loop.act('GET', `/_sandbox/interactions/${interactionId}`);
      return answers.find((a: { type: number }) => a.type === 8)?.data.choices;
    },
    15_000,
    `the choices\n${loop.botLines.join('\n')}`,
  );

const commandsUsed = async (guild: string) =>
  ok(await loop.service.call('GET', '/modules/serverstats/stats/commands/used', { query: { guild_id: guild } })).stats as {
    user_id: string;
    command: string;
  }[];

it('registers /tag for everyone and /poll and /giveaway for Manage Guild, with their options', async () => {
  const { guild } = await guildWith();
  const listed = await loop.act('GET', `/_sandbox/guilds/${guild}/commands`);
  expect(listed.map((c: { name: string; default_member_permissions: string | null }) => [c.name, c.default_member_permissions])).toEqual([
    ['tag', null],
    ['poll', MANAGE_GUILD],
    ['giveaway', MANAGE_GUILD],
  ]);
  expect(listed[0].options).toEqual([expect.objectContaining({ name: 'name', required: true, autocomplete: true })]);
});

it('/tag offers the guild’s tags while the member types, sends the chosen one, and is counted', async () => {
  const { guild, channel, member } = await guildWith('tags', 'serverstats');
  ok(
    await loop.service.call('POST', '/modules/tags/entries', {
      body: { guild_id: guild, owner_id: member, content: 'Be kind.', visibility: 1, names: ['rules'] },
    }),
  );
  ok(
    await loop.service.call('POST', '/modules/tags/entries', {
      body: { guild_id: guild, owner_id: member, content: 'Ask away.', visibility: 1, names: ['faq'] },
    }),
  );

  const typing = await run(guild, 'tag', { user_id: member, channel_id: channel, options: { name: 'ru' }, focused: 'name' });
  expect(await choices(typing.interaction_id)).toEqual([{ name: 'rules', value: 'rules' }]);

  const ran = await run(guild, 'tag', { user_id: member, channel_id: channel, options: { name: 'rules' } });
  expect(await told(ran.interaction_id, 'the tag')).toEqual(['Be kind.']);
  const used = await eventually(async () => (await commandsUsed(guild)).length > 0 && commandsUsed(guild), 15_000, 'the statistic');
  expect(used).toEqual([expect.objectContaining({ user_id: member, command: 'tag' })]);
});

it('a command of a disabled module answers the member and calls nothing else', async () => {
  const { guild, channel, member } = await guildWith('serverstats');
  const ran = await run(guild, 'tag', { user_id: member, channel_id: channel, options: { name: 'rules' } });
  const [text] = await told(ran.interaction_id, 'the refusal');
  expect(text).toMatch(/tags module is not enabled/);
  const { answers } = await loop.act('GET', `/_sandbox/interactions/${ran.interaction_id}`);
  expect(answers).toEqual([expect.objectContaining({ kind: 'callback', type: 4, data: expect.objectContaining({ flags: 64 }) })]);
  const line = loop.botLines.map((l) => JSON.parse(l)).find((l) => l.command === 'tag' && l.guild === guild);
  expect(line).toMatchObject({ module_disabled: true, told_member: true });
  expect(line.calls).toBeUndefined();
  expect(await commandsUsed(guild)).toEqual([]);
});

it('/poll is refused to a member without Manage Guild; a manager’s /poll posts the poll and is counted', async () => {
  const { guild, channel, member, manager } = await guildWith('polls', 'serverstats');
  const options = { question: 'Where do we meet?', answers: 'Park | Cafe | Library', duration: '1h' };
  await expect(run(guild, 'poll', { user_id: member, channel_id: channel, options })).rejects.toThrow(/403 .*ManageGuild/);

  const ran = await run(guild, 'poll', { user_id: manager, channel_id: channel, options });
  await told(ran.interaction_id, 'the poll answer');
  const posted = await eventually(
    async () =>
      (await loop.sandbox.state()).channels.find((c) => c.id === channel)?.messages.find((m) => JSON.stringify(m.embeds).includes('Where do we meet?')),
    15_000,
    'the poll message',
  );
  expect(JSON.stringify(posted.components)).toMatch(/Park.*Cafe.*Library/);
  const used = await eventually(async () => (await commandsUsed(guild)).length > 0 && commandsUsed(guild), 15_000, 'the statistic');
  expect(used).toEqual([expect.objectContaining({ user_id: manager, command: 'poll' })]);
});

it('/giveaway start, then end (offered while typing) and reroll of an ended one, each answered', async () => {
  const { guild, channel, manager } = await guildWith('giveaways');
  const started = await run(guild, 'giveaway start', { user_id: manager, channel_id: channel, options: { prize: 'A mug', winners: 1, duration: '1h' } });
  expect(await told(started.interaction_id, 'the start')).toEqual(['The giveaway for A mug is running.']);

  const typing = await run(guild, 'giveaway end', { user_id: manager, channel_id: channel, options: { giveaway: 'mug' }, focused: 'giveaway' });
  const [offered] = await choices(typing.interaction_id);
  expect(offered.name).toMatch(/^A mug \(/);
  const ended = await run(guild, 'giveaway end', { user_id: manager, channel_id: channel, options: { giveaway: offered.value } });
  expect(await told(ended.interaction_id, 'the end')).toEqual([`Giveaway ${offered.value} ends now: its winners are drawn and announced within seconds.`]);
  // Ended now, as at its end time: the durable end draws (nobody entered) and the record says so.
  await eventually(
    async () => ok(await loop.service.call('GET', `/modules/giveaways/entries/${offered.value}`, { query: { guild_id: guild } })).entry.status === 'ended',
    20_000,
    'the mug giveaway ended',
  );

  const short = await run(guild, 'giveaway start', { user_id: manager, channel_id: channel, options: { prize: 'A pen', duration: '1s' } });
  await told(short.interaction_id, 'the second start');
  const entry = await eventually(
    async () => {
      const { entries } = ok(await loop.service.call('GET', '/modules/giveaways/entries', { query: { guild_id: guild } }));
      return entries.find((g: { prize: string; status: string }) => g.prize === 'A pen' && g.status === 'ended');
    },
    20_000,
    'the giveaway ended',
  );
  const rerolled = await run(guild, 'giveaway reroll', { user_id: manager, channel_id: channel, options: { giveaway: entry.entry_id } });
  const [answer] = await told(rerolled.interaction_id, 'the reroll');
  expect(answer).toMatch(/nobody|no one|left to draw|entrant/i);
});
