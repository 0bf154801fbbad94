/**
 * The bot's application commands: what it registers (a bulk overwrite of
 * its global commands at every READY, so the list on the platform is
 * always this one) and what a run does. A command belongs to a module; in
 * a guild that has the module off, the member is told so (ephemeral) and
 * nothing else is called. Every other run is a `commands/used` statistic
 * (where the guild has the statistics on), keyed like the run's own calls
 * with the interaction's ID (keys.ts).
 *
 * | command | module | who may run it (`default_member_permissions`) | calls |
 * | --- | --- | --- | --- |
 * | `/tag name:` (autocomplete: the guild's tag names) | tags | everyone | `GET /modules/tags/entries?name=`, `POST /modules/tags/entries/{entry_id}/send` |
 * | `/poll question: answers: duration: multiple:` | polls | Manage Guild | `POST /modules/polls/entries` |
 * | `/giveaway start prize: winners: duration: description:` | giveaways | Manage Guild | `POST /modules/giveaways/entries` |
 * | `/giveaway end giveaway:` (autocomplete: running ones) | giveaways | Manage Guild | `POST /modules/giveaways/entries/{entry_id}/end` |
 * | `/giveaway reroll giveaway:` (autocomplete: ended ones) | giveaways | Manage Guild | `POST /modules/giveaways/entries/{entry_id}/reroll` |
 *
 * Who answers the member: the service does, through the interaction webhook,
 * for polls and giveaways (what was done, or why not), and sends the tag as
 * the answer to `/tag`; the bot acknowledges first (a deferred answer, which
 * the member sees as "thinking…") and tells the member itself only what the
 * service could not.
 */
import type { API } from '@discordjs/core';
import {
  type APIApplicationCommandAutocompleteInteraction,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandInteractionDataOption,
  type APIChatInputApplicationCommandInteraction,
  type APIInteraction,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  InteractionType,
  MessageFlags,
  PermissionFlagsBits,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { type Call, call } from './calls.js';
import { interactionIdentity, keyCalls } from './keys.js';
import { type ModuleStates, moduleOfPath, saysDisabled } from './modules.js';
import type { CallResult, Read, SendCall } from './service.js';

const manageGuild = String(PermissionFlagsBits.ManageGuild);
const inGuilds = { contexts: [InteractionContextType.Guild] };
const giveawayOption = (description: string) => ({
  type: ApplicationCommandOptionType.String as const,
  name: 'giveaway',
  description,
  required: true,
  autocomplete: true as const,
});
const duration = (what: string) => ({
  type: ApplicationCommandOptionType.String as const,
  name: 'duration',
  description: `How long ${what} runs: 30m, 12h, 7d … (default 1d)`,
  max_length: 32,
});

/** What the bot registers (the platform's shapes; `default_member_permissions` as the platform's client enforces it). */
export const COMMANDS = [
  {
    type: ApplicationCommandType.ChatInput,
    name: 'tag',
    description: 'Send one of the server’s tags',
    ...inGuilds,
    default_member_permissions: null,
    options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'The tag’s name', required: true, autocomplete: true, max_length: 32 }],
  },
  {
    type: ApplicationCommandType.ChatInput,
    name: 'poll',
    description: 'Start a poll in this channel',
    ...inGuilds,
    default_member_permissions: manageGuild,
    options: [
      { type: ApplicationCommandOptionType.String, name: 'question', description: 'What to ask', required: true, max_length: 300 },
      { type: ApplicationCommandOptionType.String, name: 'answers', description: '2 to 10 answers, separated by |  (Park | Cafe | Library)', required: true },
      duration('the poll'),
      { type: ApplicationCommandOptionType.Boolean, name: 'multiple', description: 'Members may pick several answers (default no)' },
    ],
  },
  {
    type: ApplicationCommandType.ChatInput,
    name: 'giveaway',
    description: 'Start, end or reroll a giveaway',
    ...inGuilds,
    default_member_permissions: manageGuild,
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'start',
        description: 'Start a giveaway in this channel',
        options: [
          { type: ApplicationCommandOptionType.String, name: 'prize', description: 'What the winners get', required: true, max_length: 256 },
          { type: ApplicationCommandOptionType.Integer, name: 'winners', description: 'How many win (default 1)', min_value: 1, max_value: 50 },
          duration('the giveaway'),
          { type: ApplicationCommandOptionType.String, name: 'description', description: 'More about it', max_length: 1000 },
        ],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'end',
        description: 'End a running giveaway now: its winners are drawn and announced',
        options: [giveawayOption('A running giveaway you started')],
      },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'reroll',
        description: 'Draw the next winners of an ended giveaway',
        options: [giveawayOption('An ended giveaway you started')],
      },
    ],
  },
] satisfies RESTPutAPIApplicationCommandsJSONBody;

/** The module each command belongs to. */
export const COMMAND_MODULES: Record<string, string> = { tag: 'tags', poll: 'polls', giveaway: 'giveaways' };

/** Who the command is for, where, and how to answer them. */
interface Run {
  id: string;
  token: string;
  applicationId: string;
  guildId: string;
  channelId: string;
  memberId: string;
  /** `giveaway start`: the command and its subcommand. */
  name: string;
  options: Map<string, string | number | boolean>;
}

export interface CommandDeps {
  send: SendCall;
  read: Read;
  modules: ModuleStates;
  api: Pick<API, 'interactions'>;
}

/** The subcommand path and the values of a command's data (the focused option's name too, while typing). */
function flatten(
  options: APIApplicationCommandInteractionDataOption[] | undefined,
  words: string[] = [],
): { words: string[]; values: Map<string, string | number | boolean>; focused: string | null } {
  const values = new Map<string, string | number | boolean>();
  let focused: string | null = null;
  for (const o of options ?? []) {
    if (o.type === ApplicationCommandOptionType.Subcommand || o.type === ApplicationCommandOptionType.SubcommandGroup) {
      return flatten(o.options as APIApplicationCommandInteractionDataOption[] | undefined, [...words, o.name]);
    }
    const basic = o as APIApplicationCommandInteractionDataBasicOption & { focused?: boolean; value: string | number | boolean };
    values.set(basic.name, basic.value);
    if (basic.focused) focused = basic.name;
  }
  return { words, values, focused };
}

function runOf(interaction: APIChatInputApplicationCommandInteraction | APIApplicationCommandAutocompleteInteraction) {
  const memberId = interaction.member?.user?.id ?? interaction.user?.id;
  const channelId = interaction.channel_id ?? interaction.channel?.id;
  if (!memberId || !channelId || !interaction.guild_id) return null;
  const { words, values, focused } = flatten(interaction.data.options);
  const run: Run = {
    id: interaction.id,
    token: interaction.token,
    applicationId: interaction.application_id,
    guildId: interaction.guild_id,
    channelId,
    memberId,
    name: [interaction.data.name, ...words].join(' '),
    options: values,
  };
  return { run, focused };
}

const text = (run: Run, name: string) => {
  const v = run.options.get(name);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
};
const answerOf = (answer_text: string) => ({ answer_text, label: null, description: null, emoji_name: null, emoji_id: null });

/** The service calls of a run, or what to tell the member instead. */
async function callsOf(run: Run, read: Read): Promise<{ calls: Call[]; answered: 'service' | 'bot-on-failure' } | { tell: string }> {
  const answer = { application_id: run.applicationId, token: run.token };
  const actor = { actor: run.memberId };
  switch (run.name) {
    case 'tag': {
      const name = text(run, 'name') ?? '';
      const page = await read('/modules/tags/entries', { guild_id: run.guildId, name });
      const tag = (page?.entries as { entry: { tag_id: string } }[] | undefined)?.[0]?.entry;
      if (!page) return { tell: 'The tags could not be read right now, so nothing was sent. Please try again in a minute.' };
      if (!tag) return { tell: `This server has no tag named “${name}”.` };
      const body = { guild_id: run.guildId, channel_id: run.channelId, user_mention_id: null, ...answer };
      return {
        calls: [call('post', '/modules/tags/entries/{entry_id}/send', body, { ...actor, pathParams: { entry_id: tag.tag_id } })],
        answered: 'bot-on-failure',
      };
    }
    case 'poll': {
      const answers = (text(run, 'answers') ?? '')
        .split('|')
        .map((a) => a.trim())
        .filter(Boolean);
      const body = {
        guild_id: run.guildId,
        channel_id: run.channelId,
        poll_type: 2 as const,
        message_id: null,
        poll_duration: text(run, 'duration') ?? '1d',
        poll_answer_type: 2,
        question: text(run, 'question') ?? '',
        description: null,
        answers: answers.map(answerOf),
        is_multi_select: run.options.get('multiple') === true,
        is_anonymous: false,
        max_votes_per_answer: 1,
        poll_owner_id: run.memberId,
        ...answer,
      };
      return { calls: [call('post', '/modules/polls/entries', body)], answered: 'service' };
    }
    case 'giveaway start': {
      const winners = run.options.get('winners');
      const body = {
        guild_id: run.guildId,
        channel_id: run.channelId,
        giveaway_owner_id: run.memberId,
        prize: text(run, 'prize') ?? '',
        winner_count: typeof winners === 'number' ? winners : 1,
        end_time: text(run, 'duration') ?? '1d',
        description: text(run, 'description'),
        ...answer,
      };
      return { calls: [call('post', '/modules/giveaways/entries', body)], answered: 'service' };
    }
    case 'giveaway end':
    case 'giveaway reroll': {
      const entry_id = text(run, 'giveaway') ?? '';
      const body = { guild_id: run.guildId, ...answer };
      const made =
        run.name === 'giveaway end'
          ? call('post', '/modules/giveaways/entries/{entry_id}/end', body, { ...actor, pathParams: { entry_id } })
          : call('post', '/modules/giveaways/entries/{entry_id}/reroll', body, { ...actor, pathParams: { entry_id } });
      return { calls: [made], answered: 'service' };
    }
  }
  return { tell: `This bot has no command /${run.name}.` };
}

/** What the member reads when the service could not do what they asked. */
export function failureText(result: CallResult): string {
  if (result.status === null || result.status >= 500) {
    return 'The service that handles this is not reachable right now, so nothing changed. Please try again in a minute.';
  }
  return `Nothing changed: ${result.error ?? `the service answered ${result.status}`}`;
}

/** Statuses the service does not answer the member for (shape and credential errors: the bot's to fix). */
const SERVICE_LEAVES_UNANSWERED = new Set([400, 401, 405, 413]);

/** A member ran one of the commands (type 2): the log line's fields, or null when the command is not this bot's. */
async function runCommand(interaction: APIChatInputApplicationCommandInteraction, deps: CommandDeps): Promise<Record<string, unknown> | null> {
  const module = COMMAND_MODULES[interaction.data.name];
  const parsed = module ? runOf(interaction) : null;
  if (!module || !parsed) return null;
  const { run } = parsed;
  const line: Record<string, unknown> = { event: 'INTERACTION_CREATE', guild: run.guildId, command: run.name, module };
  const ephemeral = { flags: MessageFlags.Ephemeral };
  const reply = (content: string) =>
    deps.api.interactions.reply(run.id, run.token, { content, ...ephemeral }).then(
      () => (line.told_member = true),
      (error: Error) => (line.answer_error = error.message),
    );
  if (!(await deps.modules.enabled(run.guildId, module))) {
    line.module_disabled = true;
    await reply(`The ${module} module is not enabled in this server, so /${run.name} does nothing here. A server admin can enable it.`);
    return line;
  }
  const planned = await callsOf(run, deps.read);
  if ('tell' in planned) {
    await reply(planned.tell);
    return line;
  }
  // The tag is for the channel to see; the other commands' answers are for the member alone.
  const deferred = await deps.api.interactions.defer(run.id, run.token, run.name === 'tag' ? {} : ephemeral).then(
    () => true,
    (error: Error) => ((line.ack_error = error.message), false),
  );
  if (!deferred) return line;
  const stats = (await deps.modules.enabled(run.guildId, 'serverstats'))
    ? [call('post', '/modules/serverstats/stats/commands/used', { guild_id: run.guildId, initiator_id: run.memberId, command: run.name })]
    : [];
  const calls = keyCalls(interactionIdentity(run.id), [...planned.calls, ...stats]);
  const results: CallResult[] = [];
  for (const c of calls) {
    const result = await deps.send(c);
    results.push(result);
    const callModule = moduleOfPath(c.path);
    if (callModule && saysDisabled(result.status, result.errorName ?? null)) deps.modules.markDisabled(run.guildId, callModule);
  }
  line.calls = results.map((r) => ({ operation: r.operation, status: r.status, ...(r.attempts > 1 ? { attempts: r.attempts } : {}) }));
  const main = results[0]!;
  const failed = main.status === null || main.status >= 400;
  const unanswered = planned.answered === 'bot-on-failure' || main.status === null || main.status >= 500 || SERVICE_LEAVES_UNANSWERED.has(main.status);
  if (failed && unanswered) {
    await deps.api.interactions.followUp(run.applicationId, run.token, { content: failureText(main), ...ephemeral }).then(
      () => (line.told_member = true),
      (error: Error) => (line.answer_error = error.message),
    );
  }
  return line;
}

/** The choices offered while a member types an option marked autocomplete (at most 25). */
async function choicesFor(run: Run, focused: string, read: Read): Promise<{ name: string; value: string }[]> {
  const typed = String(run.options.get(focused) ?? '')
    .trim()
    .toLowerCase();
  if (run.name === 'tag' && focused === 'name') {
    const page = await read('/modules/tags/entries', { guild_id: run.guildId, page_size: 100 });
    const names = ((page?.entries as { entry_names: { name: string }[] }[] | undefined) ?? []).flatMap((e) => e.entry_names.map((n) => n.name));
    return names
      .filter((n) => n.toLowerCase().includes(typed))
      .sort((a, b) => Number(!a.toLowerCase().startsWith(typed)) - Number(!b.toLowerCase().startsWith(typed)) || a.localeCompare(b))
      .slice(0, 25)
      .map((n) => ({ name: n, value: n }));
  }
  if ((run.name === 'giveaway end' || run.name === 'giveaway reroll') && focused === 'giveaway') {
    const page = await read('/modules/giveaways/entries', { guild_id: run.guildId, page_size: 50 });
    const wanted = run.name === 'giveaway end' ? 'running' : 'ended';
    return ((page?.entries as { entry_id: string; prize: string; status: string; owner_id: string | null }[] | undefined) ?? [])
      .filter((g) => g.status === wanted && g.owner_id === run.memberId && `${g.prize} ${g.entry_id}`.toLowerCase().includes(typed))
      .slice(0, 25)
      .map((g) => ({ name: `${g.prize} (${g.entry_id})`.slice(0, 100), value: g.entry_id }));
  }
  return [];
}

/** A member is typing an option marked autocomplete (type 4): the choices, none in a guild with the module off. */
async function autocomplete(interaction: APIApplicationCommandAutocompleteInteraction, deps: CommandDeps): Promise<Record<string, unknown> | null> {
  const module = COMMAND_MODULES[interaction.data.name];
  const parsed = module ? runOf(interaction) : null;
  if (!module || !parsed?.focused) return null;
  const { run, focused } = parsed;
  const line: Record<string, unknown> = { event: 'INTERACTION_CREATE', guild: run.guildId, autocomplete: `${run.name} ${focused}`, module };
  const choices = (await deps.modules.enabled(run.guildId, module)) ? await choicesFor(run, focused, deps.read) : [];
  line.choices = choices.length;
  await deps.api.interactions.createAutocompleteResponse(run.id, run.token, { choices }).catch((error: Error) => (line.answer_error = error.message));
  return line;
}

/** Handles an application command or its autocomplete; null for any other interaction (components and modals are interactions.ts's). */
export function handleCommand(interaction: APIInteraction, deps: CommandDeps): Promise<Record<string, unknown> | null> | null {
  if (interaction.type === InteractionType.ApplicationCommand && interaction.data.type === ApplicationCommandType.ChatInput) {
    return runCommand(interaction as APIChatInputApplicationCommandInteraction, deps);
  }
  if (interaction.type === InteractionType.ApplicationCommandAutocomplete) return autocomplete(interaction, deps);
  return null;
}
