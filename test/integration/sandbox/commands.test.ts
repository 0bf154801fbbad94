/**
 * Application commands on the sandbox (CONTRACT 17): `@discordjs/rest`, a
 * client nobody here wrote, registers global and guild commands unchanged;
 * the sandbox checks them as the platform does; a member runs one (type 2)
 * or types an autocompleted option (type 4) through the control route, is
 * refused without the command's `default_member_permissions`, and sees
 * callbacks 4, 5 (then the original edited) and 8.
 */
import { REST } from '@discordjs/rest';
import {
  type APIApplicationCommand,
  type APIInteraction,
  ApplicationCommandOptionType,
  InteractionType,
  PermissionFlagsBits,
  Routes,
} from 'discord-api-types/v10';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BOT_USER, type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';
import { sandboxControl } from '#test/helpers/sandbox.js';

const GUILD = '300000000000000017';
const CHANNEL = '200000000000000017';
const MEMBER = '400000000000000017';
const MANAGER = '400000000000000018';
const MANAGERS = '500000000000000017';
const APP = BOT_USER.id;

let sandbox: Sandbox;
let rest: REST;
let heard: APIInteraction[];

const control = sandboxControl(() => sandbox.origin);

const tag = {
  name: 'tag',
  description: 'Send a tag',
  default_member_permissions: null,
  options: [{ type: ApplicationCommandOptionType.String, name: 'name', description: 'The tag', required: true, autocomplete: true }],
};
const giveaway = {
  name: 'giveaway',
  description: 'Giveaways',
  default_member_permissions: String(PermissionFlagsBits.ManageGuild),
  options: [
    {
      type: ApplicationCommandOptionType.Subcommand,
      name: 'start',
      description: 'Start one',
      options: [
        { type: ApplicationCommandOptionType.String, name: 'prize', description: 'Prize', required: true },
        { type: ApplicationCommandOptionType.Integer, name: 'winners', description: 'Winners', min_value: 1, max_value: 50 },
        {
          type: ApplicationCommandOptionType.String,
          name: 'colour',
          description: 'Colour',
          choices: [
            { name: 'Red', value: 'red' },
            { name: 'Blue', value: 'blue' },
          ],
        },
      ],
    },
  ],
};

beforeAll(async () => {
  sandbox = await startSandbox();
  rest = new REST({ api: `${sandbox.origin}/api` }).setToken(sandbox.botToken);
  sandbox.state.listeners.add((event) => {
    if (event.t === 'INTERACTION_CREATE') heard.push(event.d as APIInteraction);
  });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.reset();
  heard = [];
  await control('PUT', `/channels/${CHANNEL}`, { guild_id: GUILD, name: 'general' });
  await control('PUT', `/guilds/${GUILD}/roles/${MANAGERS}`, { name: 'Managers', permissions: String(PermissionFlagsBits.ManageGuild) });
  await control('POST', `/guilds/${GUILD}/members/${MEMBER}/join`, {});
  await control('POST', `/guilds/${GUILD}/members/${MANAGER}/join`, { roles: [MANAGERS] });
});

describe('registering', () => {
  it('@discordjs/rest bulk-overwrites global and guild commands, lists, creates, edits and deletes one', async () => {
    const global = (await rest.put(Routes.applicationCommands(APP), { body: [tag, giveaway] })) as APIApplicationCommand[];
    expect(global.map((c) => [c.name, c.application_id, c.default_member_permissions, c.guild_id])).toEqual([
      ['tag', APP, null, undefined],
      ['giveaway', APP, String(PermissionFlagsBits.ManageGuild), undefined],
    ]);
    // An overwrite keeps the ID of a command it keeps, and drops the ones it leaves out.
    const again = (await rest.put(Routes.applicationCommands(APP), { body: [tag] })) as APIApplicationCommand[];
    expect(again.map((c) => c.id)).toEqual([global[0]!.id]);
    expect(((await rest.get(Routes.applicationCommands(APP))) as APIApplicationCommand[]).map((c) => c.name)).toEqual(['tag']);

    const own = (await rest.post(Routes.applicationGuildCommands(APP, GUILD), { body: { name: 'ping', description: 'Pong' } })) as APIApplicationCommand;
    expect(own).toMatchObject({ name: 'ping', guild_id: GUILD, default_member_permissions: null });
    const edited = (await rest.patch(Routes.applicationGuildCommand(APP, GUILD, own.id), { body: { description: 'Pong!' } })) as APIApplicationCommand;
    expect(edited).toMatchObject({ id: own.id, description: 'Pong!' });
    const seen = await control('GET', `/guilds/${GUILD}/commands`);
    expect(seen.body.map((c: APIApplicationCommand) => c.name)).toEqual(['ping', 'tag']);
    await rest.delete(Routes.applicationGuildCommand(APP, GUILD, own.id));
    expect(await rest.get(Routes.applicationGuildCommands(APP, GUILD))).toEqual([]);
  });

  it('refuses what the platform refuses, naming each field, and keeps the commands it had', async () => {
    await rest.put(Routes.applicationCommands(APP), { body: [tag] });
    const res = await fetch(`${sandbox.url}/applications/${APP}/commands`, {
      method: 'PUT',
      headers: { Authorization: `Bot ${sandbox.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { name: 'Bad Name', description: 'x' },
        {
          name: 'ok',
          description: 'x',
          options: [
            { type: 3, name: 'a', description: 'a' },
            { type: 3, name: 'b', description: 'b', required: true, autocomplete: true, choices: [{ name: 'x', value: 'x' }] },
          ],
        },
      ]),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(Object.keys(body.errors)).toEqual(['0', '1']);
    expect(body.errors['0'].name._errors[0].code).toBe('APPLICATION_COMMAND_INVALID_NAME');
    expect(body.errors['1'].options['1'].required._errors[0].message).toMatch(/Required options must be placed before/);
    expect(body.errors['1'].options['1'].autocomplete._errors[0].message).toMatch(/choices/);
    expect(((await rest.get(Routes.applicationCommands(APP))) as APIApplicationCommand[]).map((c) => c.name)).toEqual(['tag']);
  });
});

describe('running', () => {
  beforeEach(async () => {
    await rest.put(Routes.applicationCommands(APP), { body: [tag, giveaway] });
  });

  it('a member runs a command: INTERACTION_CREATE type 2 with the options, as the member, with their permissions', async () => {
    const run = await control('POST', `/guilds/${GUILD}/commands/giveaway%20start/run`, {
      user_id: MANAGER,
      channel_id: CHANNEL,
      options: { prize: 'A mug', winners: '2', colour: 'red' },
    });
    expect(run.status).toBe(200);
    const [interaction] = heard as [APIInteraction & { data: any; member: any }];
    expect(interaction).toMatchObject({
      id: run.body.interaction_id,
      token: run.body.interaction_token,
      type: InteractionType.ApplicationCommand,
      guild_id: GUILD,
    });
    expect(BigInt(interaction.member.permissions) & PermissionFlagsBits.ManageGuild).toBe(PermissionFlagsBits.ManageGuild);
    expect(interaction.data).toMatchObject({
      name: 'giveaway',
      options: [
        {
          name: 'start',
          type: 1,
          options: [
            { name: 'prize', type: 3, value: 'A mug' },
            { name: 'winners', type: 4, value: 2 },
            { name: 'colour', type: 3, value: 'red' },
          ],
        },
      ],
    });
  });

  it('a member without the command’s default_member_permissions is refused and nothing is dispatched', async () => {
    const run = await control('POST', `/guilds/${GUILD}/commands/giveaway%20start/run`, { user_id: MEMBER, channel_id: CHANNEL, options: { prize: 'A mug' } });
    expect(run).toMatchObject({ status: 403, body: { code: 50013, message: expect.stringContaining('ManageGuild') } });
    expect(heard).toEqual([]);
  });

  it('options are checked as the client checks them: required, choices, ranges, unknown names', async () => {
    const run = await control('POST', `/guilds/${GUILD}/commands/giveaway%20start/run`, {
      user_id: MANAGER,
      channel_id: CHANNEL,
      options: { winners: 99, colour: 'green', size: 1 },
    });
    expect(run.status).toBe(400);
    expect(Object.keys(run.body.errors.options).sort()).toEqual(['colour', 'prize', 'size', 'winners']);
    expect(heard).toEqual([]);
    expect((await control('POST', `/guilds/${GUILD}/commands/giveaway/run`, { user_id: MANAGER, channel_id: CHANNEL })).body.errors.name).toBeDefined();
  });

  it('typing an autocompleted option dispatches type 4 with the option focused; callback 8 is shown as the member’s choices', async () => {
    const typed = await control('POST', `/guilds/${GUILD}/commands/tag/run`, {
      user_id: MEMBER,
      channel_id: CHANNEL,
      options: { name: 'ru' },
      focused: 'name',
    });
    const [interaction] = heard as [APIInteraction & { data: any }];
    expect(interaction).toMatchObject({
      type: InteractionType.ApplicationCommandAutocomplete,
      data: { options: [{ name: 'name', value: 'ru', focused: true }] },
    });
    const url = `${sandbox.url}/interactions/${typed.body.interaction_id}/${typed.body.interaction_token}/callback`;
    const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post({ type: 4, data: { content: 'no' } })).status).toBe(400);
    expect((await post({ type: 8, data: { choices: [{ name: 'rules', value: 'rules' }] } })).status).toBe(204);
    const shown = await control('GET', `/interactions/${typed.body.interaction_id}`);
    expect(shown.body.answers).toEqual([expect.objectContaining({ kind: 'callback', type: 8, data: { choices: [{ name: 'rules', value: 'rules' }] } })]);
  });

  it('a deferred answer (5) then an edit of the original shows the member the edited message', async () => {
    const run = await control('POST', `/guilds/${GUILD}/commands/tag/run`, { user_id: MEMBER, channel_id: CHANNEL, options: { name: 'rules' } });
    const { interaction_id: id, interaction_token: token } = run.body;
    const callback = await fetch(`${sandbox.url}/interactions/${id}/${token}/callback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 5, data: { flags: 64 } }),
    });
    expect(callback.status).toBe(204);
    const edited = (await rest.patch(Routes.webhookMessage(APP, token, '@original'), { body: { content: 'Be kind.' }, auth: false })) as { content: string };
    expect(edited.content).toBe('Be kind.');
    const shown = await control('GET', `/interactions/${id}`);
    expect(shown.body.answers).toEqual([expect.objectContaining({ kind: 'callback', type: 5, data: { flags: 64, content: 'Be kind.' } })]);
  });
});
