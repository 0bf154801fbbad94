/**
 * The bot's commands and its module states, driven with dispatch payloads and
 * fakes of the service and the platform's interaction routes: a guild's
 * events go only to the modules it enabled (asked again after the time to
 * live, and at once on a "disabled" answer), a command of a disabled module
 * answers the member and calls nothing, a run is a keyed `commands/used`
 * recording, and autocomplete offers the guild's tags.
 */
import { ApplicationCommandOptionType, ApplicationCommandType, InteractionType, PermissionFlagsBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { handleDispatch } from '../../../clients/bot/bot.js';
import type { Call } from '../../../clients/bot/calls.js';
import { COMMANDS } from '../../../clients/bot/commands.js';
import { BotMemory } from '../../../clients/bot/memory.js';
import { ModuleStates } from '../../../clients/bot/modules.js';
import type { CallResult } from '../../../clients/bot/service.js';
import { APP, CHANNEL, GUILD, MEMBER, reaction } from './fixtures.js';

const ID = '1100000000000000020';

function world(options: { off?: string[]; answer?: (call: Call) => Partial<CallResult>; ttlMs?: number } = {}) {
  let now = 0;
  const off = new Set(options.off ?? []);
  const asked: string[] = [];
  const sent: Call[] = [];
  const said: { route: string; body?: unknown }[] = [];
  const modules = new ModuleStates(
    async (_g, module) => (asked.push(module), !off.has(module)),
    options.ttlMs ?? 60_000,
    () => now,
  );
  const send = async (call: Call): Promise<CallResult> => {
    sent.push(call);
    return { operation: call.operation, status: 200, error: null, errorName: null, attempts: 1, ...options.answer?.(call) };
  };
  const read = async (path: string, query: Record<string, string | number>) => {
    if (path !== '/modules/tags/entries') return null;
    const tags = [
      { entry: { tag_id: 't-rules' }, entry_names: [{ name: 'rules' }, { name: 'faq' }] },
      { entry: { tag_id: 't-roles' }, entry_names: [{ name: 'roles' }] },
    ];
    return { entries: query.name ? tags.filter((t) => t.entry_names.some((n) => n.name === query.name)) : tags };
  };
  const api = {
    interactions: {
      reply: async (id: string, _t: string, body: unknown) => void said.push({ route: `reply ${id}`, body }),
      defer: async (id: string, _t: string, body: unknown) => void said.push({ route: `defer ${id}`, body }),
      followUp: async (app: string, _t: string, body: unknown) => (said.push({ route: `followup ${app}`, body }), {}),
      createAutocompleteResponse: async (id: string, _t: string, body: unknown) => void said.push({ route: `choices ${id}`, body }),
      deferMessageUpdate: async () => undefined,
    },
  };
  const deps = { memory: new BotMemory(), send, api: api as never, modules, read };
  return { deps, asked, sent, said, off, advance: (ms: number) => (now += ms) };
}

const command = (name: string, options: unknown[], type = InteractionType.ApplicationCommand) => ({
  t: 'INTERACTION_CREATE',
  d: {
    id: ID,
    application_id: APP,
    type,
    token: 'tok',
    version: 1,
    guild_id: GUILD,
    channel_id: CHANNEL,
    member: { user: { id: MEMBER, username: 'm', discriminator: '0', global_name: null, avatar: null }, roles: [], permissions: '0' },
    data: { id: '1', name, type: ApplicationCommandType.ChatInput, options },
  },
});
const str = (name: string, value: string, focused?: boolean) => ({ name, type: ApplicationCommandOptionType.String, value, ...(focused ? { focused } : {}) });

describe('module states', () => {
  it('a reaction in a guild that enabled neither polls nor the statistics calls only the reaction roles', async () => {
    const { deps, sent } = world({ off: ['polls', 'serverstats'] });
    const line = await handleDispatch(reaction(true), deps);
    expect(sent.map((c) => c.operation)).toEqual(['POST /modules/reactionroles/check']);
    expect(line).toMatchObject({ level: 'info', calls: [{ operation: 'POST /modules/reactionroles/check', status: 200 }] });
  });

  it('an event no enabled module needs makes no call and no line', async () => {
    const { deps, sent } = world({ off: ['reactionroles', 'polls', 'serverstats'] });
    expect(await handleDispatch(reaction(true), deps)).toBeNull();
    expect(sent).toEqual([]);
  });

  it('asks the service once per guild, again after the time to live, and believes a "disabled" answer at once', async () => {
    const { deps, asked, sent, off, advance } = world({
      answer: (c) => (c.path.includes('polls') && off.has('polls-now') ? { status: 409, errorName: 'ModuleDisabledError', error: 'off' } : {}),
    });
    await handleDispatch(reaction(true), deps);
    await handleDispatch(reaction(false), deps);
    expect(asked.filter((m) => m === 'polls')).toHaveLength(1);
    off.add('polls-now');
    sent.length = 0;
    const line = await handleDispatch(reaction(true), deps);
    expect(line).toMatchObject({ level: 'info' });
    sent.length = 0;
    await handleDispatch(reaction(true), deps);
    expect(sent.map((c) => c.operation)).not.toContain('POST /modules/polls/entry/vote');
    off.add('polls');
    advance(60_000);
    await handleDispatch(reaction(true), deps);
    expect(asked.filter((m) => m === 'polls')).toHaveLength(2);
  });

  it('an "off" answer is asked again after 15 s, so a module enabled since is not missed for long; an "on" one holds 60 s', async () => {
    const { deps, asked, sent, off, advance } = world({ off: ['polls'] });
    await handleDispatch(reaction(true), deps);
    expect(sent.map((c) => c.operation)).not.toContain('POST /modules/polls/entry/vote');
    off.delete('polls');
    advance(14_000);
    await handleDispatch(reaction(true), deps);
    expect(asked.filter((m) => m === 'polls')).toHaveLength(1);
    advance(1_000);
    sent.length = 0;
    await handleDispatch(reaction(true), deps);
    expect(sent.map((c) => c.operation)).toContain('POST /modules/polls/entry/vote');
    expect(asked.filter((m) => m === 'reactionroles')).toHaveLength(1);
  });

  it('a failure still stands out: a 5xx is an error line, another refusal a warning', async () => {
    const down = world({ answer: (c) => (c.path.includes('starboard') ? { status: 503, error: 'Database Error' } : {}) });
    expect(await handleDispatch(reaction(true), down.deps)).toMatchObject({ level: 'error' });
    const refused = world({ answer: (c) => (c.path.includes('reactionroles') ? { status: 404, errorName: 'NotFoundError', error: 'no panel' } : {}) });
    expect(await handleDispatch(reaction(true), refused.deps)).toMatchObject({ level: 'warn' });
  });
});

describe('commands', () => {
  it('registers /tag for everyone and /poll and /giveaway for members with Manage Guild', () => {
    expect(COMMANDS.map((c) => [c.name, c.default_member_permissions])).toEqual([
      ['tag', null],
      ['poll', String(PermissionFlagsBits.ManageGuild)],
      ['giveaway', String(PermissionFlagsBits.ManageGuild)],
    ]);
    expect(COMMANDS[2]!.options.map((o) => o.name)).toEqual(['start', 'end', 'reroll']);
  });

  it('/tag sends the named tag as the answer (deferred first), and records commands/used, both keyed by the interaction', async () => {
    const { deps, sent, said } = world();
    const line = await handleDispatch(command('tag', [str('name', 'faq')]), deps);
    expect(said).toEqual([{ route: `defer ${ID}`, body: {} }]);
    expect(sent.map((c) => [c.operation, c.pathParams, c.actor, c.idempotencyKey])).toEqual([
      ['POST /modules/tags/entries/{entry_id}/send', { entry_id: 't-rules' }, MEMBER, `interaction:${ID}:post.tags.entries.entry_id.send`],
      ['POST /modules/serverstats/stats/commands/used', {}, null, `interaction:${ID}:post.serverstats.stats.commands.used`],
    ]);
    expect(sent[0]!.body).toMatchObject({ guild_id: GUILD, channel_id: CHANNEL, application_id: APP, token: 'tok' });
    expect(sent[1]!.body).toEqual({ guild_id: GUILD, initiator_id: MEMBER, command: 'tag' });
    expect(line).toMatchObject({ level: 'info', command: 'tag', module: 'tags' });
  });

  it('a command of a disabled module answers the member (ephemeral) and calls nothing else', async () => {
    const { deps, sent, said } = world({ off: ['polls'] });
    await handleDispatch(command('poll', [str('question', 'Q?'), str('answers', 'a | b')]), deps);
    expect(sent).toEqual([]);
    expect(said).toEqual([{ route: `reply ${ID}`, body: { content: expect.stringContaining('polls module is not enabled'), flags: 64 } }]);
  });

  it('/giveaway reroll names the subcommand in the statistic and calls the reroll as the member', async () => {
    const { deps, sent } = world();
    await handleDispatch(command('giveaway', [{ name: 'reroll', type: ApplicationCommandOptionType.Subcommand, options: [str('giveaway', 'g1')] }]), deps);
    expect(sent.map((c) => [c.operation, c.actor])).toEqual([
      ['POST /modules/giveaways/entries/{entry_id}/reroll', MEMBER],
      ['POST /modules/serverstats/stats/commands/used', null],
    ]);
    expect(sent[1]!.body).toMatchObject({ command: 'giveaway reroll' });
  });

  it('a tag the service cannot send is told to the member by the bot (the send answers no one)', async () => {
    const { deps, said } = world({ answer: (c) => (c.path.includes('send') ? { status: 403, error: 'Forbidden! Tag t-rules is private.' } : {}) });
    await handleDispatch(command('tag', [str('name', 'rules')]), deps);
    expect(said[1]).toEqual({ route: `followup ${APP}`, body: { content: 'Nothing changed: Forbidden! Tag t-rules is private.', flags: 64 } });
  });

  it('autocomplete offers the guild’s tag names matching what was typed, and records nothing', async () => {
    const { deps, sent, said } = world();
    await handleDispatch(command('tag', [str('name', 'ro', true)], InteractionType.ApplicationCommandAutocomplete), deps);
    expect(said).toEqual([{ route: `choices ${ID}`, body: { choices: [{ name: 'roles', value: 'roles' }] } }]);
    expect(sent).toEqual([]);
  });
});
