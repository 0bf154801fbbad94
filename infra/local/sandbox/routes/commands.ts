/**
 * Application commands on the sandbox platform, as the platform has them:
 * an application registers global commands and commands of one guild, with
 * options (types 1 to 11, nested subcommands and groups), `required`,
 * `choices`, `autocomplete`, `default_member_permissions` and
 * `dm_permission`, checked as the platform checks them (400 Invalid Form
 * Body naming each field). A bulk overwrite keeps the ID of a command whose
 * name it keeps, as the platform does.
 *
 * Platform routes (under `/api/v10`; `{scope}` is `applications/{a}` or `applications/{a}/guilds/{g}`):
 *   GET    /{scope}/commands               the scope's commands
 *   PUT    /{scope}/commands               bulk overwrite: the list given becomes the scope's commands
 *   POST   /{scope}/commands               one command: 201 when new, 200 when it replaced one of its name
 *   GET    /{scope}/commands/{c}           one command
 *   PATCH  /{scope}/commands/{c}           changes the fields given
 *   DELETE /{scope}/commands/{c}           204
 *
 * Control routes (under `/_sandbox`):
 *   POST /guilds/{g}/commands/{name}/run   `{user_id, channel_id, options?, focused?}`: a member runs the command
 *                                          (`name` may be `giveaway start`: a subcommand, or a group and its
 *                                          subcommand); `options` as option name -> value. Dispatches
 *                                          INTERACTION_CREATE type 2 and answers `{interaction_id, interaction_token}`.
 *                                          With `focused` (an option marked `autocomplete`), the member is typing
 *                                          that option: type 4, its value as typed so far, other options unchecked.
 *                                          A member without the command's `default_member_permissions` is refused
 *                                          as the platform's client refuses (403 50013, nothing dispatched).
 *   GET  /guilds/{g}/commands              the commands a member of the guild sees: the guild's, then the global ones
 */
import {
  type APIApplicationCommand,
  type APIApplicationCommandInteraction,
  type APIApplicationCommandOption,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandInteractionDataOption,
  type APIApplicationCommandAutocompleteInteraction,
  type APIInteractionGuildMember,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionType,
  PermissionFlagsBits,
  type Permissions,
} from 'discord-api-types/v10';
import { FormErrors, SandboxError, invalidField, invalidJson, routeNotFound } from '../errors.js';
import type { Route } from '../router.js';
import { mintSnowflake, type SandboxState } from '../state.js';
import { guildPermissionsOf } from '../permissions.js';
import { baseOf, start } from './interactions.js';
import { requireMember } from './members.js';

type Path = (string | number)[];
type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The platform's name rule for chat-input commands and options: lowercase letters, digits, `-` and `_`, 1 to 32. */
const NAME = /^[-_\p{Ll}\p{Lo}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const OPTION_TYPES = new Set<number>(Object.values(ApplicationCommandOptionType).filter((v): v is number => typeof v === 'number'));
const SUBS = new Set<number>([ApplicationCommandOptionType.Subcommand, ApplicationCommandOptionType.SubcommandGroup]);
/** Global chat-input commands an application may have, and per guild. */
const MAX_COMMANDS = 100;
/** What every member may do, as the sandbox's channels grant it to `@everyone` (view, send, read history, react). */
const EVERYONE = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ReadMessageHistory | PermissionFlagsBits.AddReactions;

function checkText(errors: FormErrors, path: Path, value: unknown, max: number, rule?: RegExp): void {
  if (typeof value !== 'string' || value.length === 0) return errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
  if (value.length > max) return errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${max} in length.`);
  if (rule && !rule.test(value))
    errors.add(path, 'APPLICATION_COMMAND_INVALID_NAME', `Command name is invalid: 1 to 32 lowercase letters, digits, - or _ ("${value}").`);
}

function checkChoices(errors: FormErrors, path: Path, option: Fields): void {
  if (option.choices === undefined) return;
  if (!Array.isArray(option.choices)) return errors.add([...path, 'choices'], 'BASE_TYPE_ARRAY', 'Must be an array.');
  if (option.choices.length > 25) errors.add([...path, 'choices'], 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  if (option.autocomplete === true && option.choices.length > 0)
    errors.add([...path, 'autocomplete'], 'APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE', 'Autocomplete cannot be set if there are choices.');
  const numeric = option.type === ApplicationCommandOptionType.Integer || option.type === ApplicationCommandOptionType.Number;
  for (const [i, choice] of option.choices.entries()) {
    const c = isObject(choice) ? choice : {};
    checkText(errors, [...path, 'choices', i, 'name'], c.name, 100);
    const ok = numeric
      ? typeof c.value === 'number' && (option.type !== ApplicationCommandOptionType.Integer || Number.isInteger(c.value))
      : typeof c.value === 'string' && c.value.length <= 100;
    if (!ok)
      errors.add(
        [...path, 'choices', i, 'value'],
        'BASE_TYPE_CHOICES',
        numeric ? 'Must be a number of the option type.' : 'Must be a string of 100 or fewer in length.',
      );
  }
}

/** One option (and its own options): its type, texts, nesting and choices. */
function checkOption(errors: FormErrors, path: Path, option: unknown, depth: number): void {
  if (!isObject(option)) return errors.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
  if (!OPTION_TYPES.has(option.type as number)) errors.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11).');
  checkText(errors, [...path, 'name'], option.name, 32, NAME);
  checkText(errors, [...path, 'description'], option.description, 100);
  const sub = SUBS.has(option.type as number);
  if (sub && depth >= (option.type === ApplicationCommandOptionType.SubcommandGroup ? 1 : 2))
    errors.add([...path, 'type'], 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID', 'Subcommands nest at most as a group, then a subcommand.');
  if (
    option.autocomplete === true &&
    ![ApplicationCommandOptionType.String, ApplicationCommandOptionType.Integer, ApplicationCommandOptionType.Number].includes(option.type as number)
  )
    errors.add([...path, 'autocomplete'], 'BASE_TYPE_CHOICES', 'Only string, integer and number options autocomplete.');
  checkChoices(errors, path, option);
  if (sub) checkOptions(errors, [...path, 'options'], option.options ?? [], depth + 1, option.type === ApplicationCommandOptionType.SubcommandGroup);
  else if (option.options !== undefined) errors.add([...path, 'options'], 'BASE_TYPE_CHOICES', 'Only subcommands and groups hold options.');
}

/** A list of options: at most 25, names unique, required ones first; a group holds subcommands only. */
function checkOptions(errors: FormErrors, path: Path, options: unknown, depth: number, groupOnly = false): void {
  if (!Array.isArray(options)) return errors.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
  if (options.length > 25) errors.add(path, 'BASE_TYPE_MAX_LENGTH', 'Must be 25 or fewer in length.');
  const names = new Set<unknown>();
  let optionalSeen = false;
  for (const [i, option] of options.entries()) {
    checkOption(errors, [...path, i], option, depth);
    const o = isObject(option) ? option : {};
    if (names.has(o.name)) errors.add([...path, i, 'name'], 'APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS', 'Option names must be unique.');
    names.add(o.name);
    if (groupOnly && o.type !== ApplicationCommandOptionType.Subcommand)
      errors.add([...path, i, 'type'], 'BASE_TYPE_CHOICES', 'A group holds subcommands only.');
    if (o.required === true && optionalSeen)
      errors.add([...path, i, 'required'], 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID', 'Required options must be placed before non-required options.');
    if (o.required !== true) optionalSeen = true;
  }
}

/** A command body as the platform checks it; `partial` for PATCH (only the fields given). */
function checkCommand(errors: FormErrors, path: Path, body: unknown, partial = false): Fields {
  if (!isObject(body)) {
    errors.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return {};
  }
  const type = body.type ?? ApplicationCommandType.ChatInput;
  if (![1, 2, 3, 4].includes(type as number)) errors.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4).');
  const chatInput = type === ApplicationCommandType.ChatInput;
  if (!partial || body.name !== undefined) checkText(errors, [...path, 'name'], body.name, 32, chatInput ? NAME : undefined);
  if (chatInput && (!partial || body.description !== undefined)) checkText(errors, [...path, 'description'], body.description, 100);
  if (body.options !== undefined) {
    if (!chatInput) errors.add([...path, 'options'], 'BASE_TYPE_CHOICES', 'Only chat-input commands (type 1) take options.');
    else checkOptions(errors, [...path, 'options'], body.options, 0);
  }
  const perms = body.default_member_permissions;
  if (perms !== undefined && perms !== null && !(typeof perms === 'string' && /^[0-9]{1,20}$/.test(perms)))
    errors.add([...path, 'default_member_permissions'], 'NUMBER_TYPE_COERCE', 'Permission bits as a decimal string, or null for everyone.');
  if (body.dm_permission !== undefined && body.dm_permission !== null && typeof body.dm_permission !== 'boolean')
    errors.add([...path, 'dm_permission'], 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
  return body;
}

/** The command as the platform answers it. */
function commandOf(applicationId: string, guildId: string | null, body: Fields, id = mintSnowflake()): APIApplicationCommand {
  return {
    id,
    type: (body.type as ApplicationCommandType) ?? ApplicationCommandType.ChatInput,
    application_id: applicationId,
    ...(guildId ? { guild_id: guildId } : {}),
    name: body.name as string,
    description: (body.description as string | undefined) ?? '',
    ...(Array.isArray(body.options) && body.options.length > 0 ? { options: body.options as APIApplicationCommandOption[] } : {}),
    default_member_permissions: (body.default_member_permissions as string | null | undefined) ?? null,
    ...(guildId ? {} : { dm_permission: (body.dm_permission as boolean | undefined) ?? true }),
    nsfw: body.nsfw === true,
    version: mintSnowflake(),
  };
}

/** The commands of one scope, oldest first. */
export function commandsOf(state: SandboxState, applicationId: string, guildId: string | null): APIApplicationCommand[] {
  return [...state.commands.values()].filter((c) => c.application_id === applicationId && (c.guild_id ?? null) === guildId);
}

function overwrite(state: SandboxState, applicationId: string, guildId: string | null, body: unknown): APIApplicationCommand[] {
  if (!Array.isArray(body)) throw invalidJson();
  const errors = new FormErrors();
  const checked = body.map((c, i) => checkCommand(errors, [i], c));
  const seen = new Set<string>();
  for (const [i, c] of checked.entries()) {
    const key = `${c.type ?? 1}/${String(c.name)}`;
    if (seen.has(key)) errors.add([i, 'name'], 'APPLICATION_COMMAND_ALREADY_EXISTS', 'Application command names must be unique');
    seen.add(key);
  }
  if (checked.length > MAX_COMMANDS) errors.add([], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_COMMANDS} or fewer in length.`);
  errors.throwIfAny();
  const before = commandsOf(state, applicationId, guildId);
  for (const c of before) state.commands.delete(c.id);
  return checked.map((c) => {
    const kept = before.find((b) => b.name === c.name && b.type === (c.type ?? 1));
    const command = commandOf(applicationId, guildId, c, kept?.id);
    state.commands.set(command.id, command);
    return command;
  });
}

function createOne(state: SandboxState, applicationId: string, guildId: string | null, body: unknown) {
  const errors = new FormErrors();
  const c = checkCommand(errors, [], body);
  errors.throwIfAny();
  const kept = commandsOf(state, applicationId, guildId).find((b) => b.name === c.name && b.type === (c.type ?? 1));
  if (!kept && commandsOf(state, applicationId, guildId).length >= MAX_COMMANDS)
    throw new SandboxError(400, 30032, 'Maximum number of application commands reached (100)');
  const command = commandOf(applicationId, guildId, c, kept?.id);
  state.commands.set(command.id, command);
  return { status: kept ? 200 : 201, body: command };
}

function requireCommand(state: SandboxState, applicationId: string, guildId: string | null, commandId: string): APIApplicationCommand {
  const command = state.commands.get(commandId);
  if (!command || command.application_id !== applicationId || (command.guild_id ?? null) !== guildId)
    throw new SandboxError(404, 10063, 'Unknown application command');
  return command;
}

function edit(state: SandboxState, applicationId: string, guildId: string | null, commandId: string, body: unknown): APIApplicationCommand {
  const command = requireCommand(state, applicationId, guildId, commandId);
  const errors = new FormErrors();
  const changes = checkCommand(errors, [], { ...(body as Fields), type: command.type }, true);
  errors.throwIfAny();
  const next = commandOf(applicationId, guildId, { ...command, ...changes }, command.id);
  state.commands.set(command.id, next);
  return next;
}

/** The routes of one scope: global (`guild` absent) or one guild's. */
function scopeRoutes(prefix: string): Route[] {
  const scope = (params: Record<string, string>) => [params.application!, params.guild ?? null] as const;
  return [
    { method: 'GET', pattern: `${prefix}/commands`, handle: ({ state, params }) => ({ status: 200, body: commandsOf(state, ...scope(params)) }) },
    { method: 'PUT', pattern: `${prefix}/commands`, handle: ({ state, params, body }) => ({ status: 200, body: overwrite(state, ...scope(params), body) }) },
    { method: 'POST', pattern: `${prefix}/commands`, handle: ({ state, params, body }) => createOne(state, ...scope(params), body) },
    {
      method: 'GET',
      pattern: `${prefix}/commands/:command`,
      handle: ({ state, params }) => ({ status: 200, body: requireCommand(state, ...scope(params), params.command!) }),
    },
    {
      method: 'PATCH',
      pattern: `${prefix}/commands/:command`,
      handle: ({ state, params, body }) => ({ status: 200, body: edit(state, ...scope(params), params.command!, body) }),
    },
    {
      method: 'DELETE',
      pattern: `${prefix}/commands/:command`,
      handle: ({ state, params }) => (state.commands.delete(requireCommand(state, ...scope(params), params.command!).id), { status: 204 }),
    },
  ];
}

export const commandRoutes: Route[] = [...scopeRoutes('/applications/:application/guilds/:guild'), ...scopeRoutes('/applications/:application')];

/** What a guild's members see: the guild's commands, then the global ones whose name the guild's do not take. */
export function commandsInGuild(state: SandboxState, guildId: string): APIApplicationCommand[] {
  const own = [...state.commands.values()].filter((c) => c.guild_id === guildId);
  const global = [...state.commands.values()].filter((c) => !c.guild_id && !own.some((o) => o.name === c.name && o.type === c.type));
  return [...own, ...global].filter((c) => c.type === ApplicationCommandType.ChatInput);
}

/** A member's permissions in the guild: what everyone may do, and what the platform computes for them (their roles, ownership, rights given). */
export function memberPermissions(state: SandboxState, guildId: string, userId: string): bigint {
  const total = EVERYONE | guildPermissionsOf(state, guildId, userId);
  return total & PermissionFlagsBits.Administrator ? total | ((1n << 53n) - 1n) : total;
}

/** The platform's client offers a command only to members holding all of its `default_member_permissions` ("0": administrators only). */
function mayRun(command: APIApplicationCommand, permissions: bigint): boolean {
  if (command.default_member_permissions === null || command.default_member_permissions === undefined) return true;
  if (permissions & PermissionFlagsBits.Administrator) return true;
  const needed = BigInt(command.default_member_permissions);
  return needed !== 0n && (permissions & needed) === needed;
}

/** Names of the permission bits set in `bits`, for the refusal. */
const permissionNames = (bits: bigint) =>
  Object.entries(PermissionFlagsBits)
    .filter(([, bit]) => bits & bit)
    .map(([name]) => name);

/** The option named by the run's path: the command, then a group or subcommand named after it. */
function resolve(command: APIApplicationCommand, words: string[]): { path: APIApplicationCommandOption[]; options: APIApplicationCommandOption[] } {
  let options = command.options ?? [];
  const path: APIApplicationCommandOption[] = [];
  for (const word of words) {
    const next = options.find((o) => SUBS.has(o.type) && o.name === word);
    if (!next) throw new SandboxError(404, 10063, `/${command.name} has no subcommand "${word}".`);
    path.push(next);
    options = 'options' in next ? ((next.options ?? []) as APIApplicationCommandOption[]) : [];
  }
  if (options.some((o) => SUBS.has(o.type)))
    throw invalidField(
      ['name'],
      'BASE_TYPE_CHOICES',
      `Name a subcommand too: ${options.map((o) => `"${[command.name, ...words, o.name].join(' ')}"`).join(', ')}.`,
    );
  return { path, options };
}

/** One option's value as the member gave it, coerced and checked as the platform's client checks it. */
function optionValue(errors: FormErrors, option: APIApplicationCommandOption, value: unknown): string | number | boolean | null {
  const path = ['options', option.name];
  const o = option as APIApplicationCommandOption & {
    choices?: { value: unknown }[];
    min_value?: number;
    max_value?: number;
    min_length?: number;
    max_length?: number;
  };
  let v: string | number | boolean | null = null;
  switch (option.type) {
    case ApplicationCommandOptionType.String:
      if (typeof value === 'string') v = value;
      break;
    case ApplicationCommandOptionType.Integer:
    case ApplicationCommandOptionType.Number: {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (Number.isFinite(n) && (option.type === ApplicationCommandOptionType.Number || Number.isInteger(n))) v = n;
      break;
    }
    case ApplicationCommandOptionType.Boolean:
      if (typeof value === 'boolean' || value === 'true' || value === 'false') v = value === true || value === 'true';
      break;
    case ApplicationCommandOptionType.Attachment:
      errors.add(path, 'BASE_TYPE_CHOICES', 'The sandbox does not upload attachments.');
      return null;
    default:
      if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) v = value;
  }
  if (v === null) {
    errors.add(path, 'BASE_TYPE_CHOICES', `Not a value of option type ${option.type} (${ApplicationCommandOptionType[option.type]}).`);
    return null;
  }
  if (o.choices && o.choices.length > 0 && !o.choices.some((c) => c.value === v))
    errors.add(path, 'BASE_TYPE_CHOICES', `One of the choices: ${o.choices.map((c) => JSON.stringify(c.value)).join(', ')}.`);
  if (typeof v === 'number' && ((o.min_value !== undefined && v < o.min_value) || (o.max_value !== undefined && v > o.max_value)))
    errors.add(path, 'NUMBER_TYPE_MAX', `Between ${o.min_value ?? '-∞'} and ${o.max_value ?? '∞'}.`);
  if (typeof v === 'string' && option.type === ApplicationCommandOptionType.String && (v.length < (o.min_length ?? 1) || v.length > (o.max_length ?? 6000)))
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Between ${o.min_length ?? 1} and ${o.max_length ?? 6000} in length.`);
  return v;
}

/** A member runs a command (type 2), or types an option marked autocomplete (type 4). */
function run(state: SandboxState, guildId: string, name: string, body: unknown) {
  const b = isObject(body) ? body : {};
  const errors = new FormErrors();
  if (typeof b.user_id !== 'string' || !/^[0-9]{1,20}$/.test(b.user_id)) errors.add(['user_id'], 'NUMBER_TYPE_COERCE', 'Must be a snowflake string.');
  if (typeof b.channel_id !== 'string' || state.channels.get(b.channel_id)?.guild_id !== guildId)
    errors.add(['channel_id'], 'BASE_TYPE_CHOICES', `A channel of guild ${guildId}, where the member runs the command.`);
  if (b.options !== undefined && !isObject(b.options)) errors.add(['options'], 'DICT_TYPE_CONVERT', 'Must be an object: option name -> value.');
  if (b.focused !== undefined && typeof b.focused !== 'string') errors.add(['focused'], 'BASE_TYPE_STRING', 'The name of the option being typed.');
  errors.throwIfAny();
  const userId = b.user_id as string;
  requireMember(state, guildId, userId);
  const [top, ...words] = name.trim().split(/\s+/);
  const command = commandsInGuild(state, guildId).find((c) => c.name === top);
  if (!command) throw routeNotFound();
  const permissions = memberPermissions(state, guildId, userId);
  if (!mayRun(command, permissions)) {
    const needed = command.default_member_permissions === '0' ? ['Administrator'] : permissionNames(BigInt(command.default_member_permissions!));
    throw new SandboxError(
      403,
      50013,
      `Missing Permissions: /${command.name} is for members with ${needed.join(', ')}; the platform does not offer it to this member.`,
    );
  }
  const { path, options } = resolve(command, words);
  const given = (b.options ?? {}) as Fields;
  const focused = b.focused as string | undefined;
  for (const key of Object.keys(given)) {
    if (!options.some((o) => o.name === key))
      errors.add(['options', key], 'BASE_TYPE_CHOICES', `/${name} has no option "${key}"; it has ${options.map((o) => o.name).join(', ') || 'none'}.`);
  }
  if (focused !== undefined && !options.some((o) => o.name === focused && 'autocomplete' in o && o.autocomplete))
    errors.add(['focused'], 'BASE_TYPE_CHOICES', `"${focused}" is not an option of /${name} marked autocomplete.`);
  const values: APIApplicationCommandInteractionDataBasicOption[] = [];
  for (const option of options) {
    const value = given[option.name];
    if (option.name === focused) {
      values.push({ name: option.name, type: option.type, value: String(value ?? ''), focused: true } as APIApplicationCommandInteractionDataBasicOption);
      continue;
    }
    if (value === undefined || value === null || value === '') {
      if ('required' in option && option.required && focused === undefined)
        errors.add(['options', option.name], 'BASE_TYPE_REQUIRED', 'This option is required.');
      continue;
    }
    const v = focused === undefined ? optionValue(errors, option, value) : value;
    if (v !== null) values.push({ name: option.name, type: option.type, value: v } as APIApplicationCommandInteractionDataBasicOption);
  }
  errors.throwIfAny();
  // Subcommands wrap the values: the group, then the subcommand, each an option holding the next.
  const nested = path.reduceRight<APIApplicationCommandInteractionDataOption[]>(
    (inner, sub) => [{ name: sub.name, type: sub.type, options: inner } as APIApplicationCommandInteractionDataOption],
    values,
  );
  const base = baseOf(state, b.channel_id as string, userId);
  const member = { ...(base as { member: APIInteractionGuildMember }).member, permissions: String(permissions) as Permissions };
  const interaction = {
    ...base,
    member,
    application_id: command.application_id,
    type: focused === undefined ? InteractionType.ApplicationCommand : InteractionType.ApplicationCommandAutocomplete,
    data: { id: command.id, name: command.name, type: command.type, guild_id: guildId, ...(nested.length > 0 ? { options: nested } : {}) },
  } as APIApplicationCommandInteraction | APIApplicationCommandAutocompleteInteraction;
  return start(state, interaction);
}

export const commandControlRoutes: Route[] = [
  { method: 'GET', pattern: '/guilds/:guild/commands', handle: ({ state, params }) => ({ status: 200, body: commandsInGuild(state, params.guild!) }) },
  {
    method: 'POST',
    pattern: '/guilds/:guild/commands/:name/run',
    handle: ({ state, params, body }) => ({ status: 200, body: run(state, params.guild!, params.name!, body) }),
  },
];
