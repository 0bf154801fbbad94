/**
 * Interactions on the sandbox platform: members click components and submit
 * modals (control routes; commands are run in commands.ts), which dispatches INTERACTION_CREATE with a token;
 * the bot answers through `POST /interactions/{id}/{token}/callback` (no bot
 * token, as on the platform) and follow-ups on the interaction webhook.
 *
 * The callback takes types 4 (a message), 5 and 6 (deferred), 7 (the clicked
 * message updated), 8 (autocomplete choices) and 9 (a modal) as the platform validates them, and keeps
 * every callback so tests and the sandbox page show what a member saw. An
 * interaction is answered once (a second callback: 400, code 40060); the
 * token of an interaction the sandbox started must match (401, code 50027).
 * Callbacks for interactions the sandbox did not start are kept too, so the
 * service can be driven without a click.
 *
 * Control routes (under `/_sandbox`):
 *   POST /channels/{c}/messages/{m}/click  `{user_id, custom_id, values?}`: the member clicks the message's
 *                                          button (or picks `values` in its select); answers `{interaction_id,
 *                                          interaction_token}`; 404 when the message has no such component
 *   POST /interactions/{id}/submit         `{user_id, custom_id, values}` (text input custom ID -> text): the member
 *                                          submits the modal that interaction was answered with; 404 when none was
 *   GET  /interactions/{id}                `{interaction, answers}`: the interaction as dispatched, and its
 *                                          callback and follow-ups in order
 *   GET  /interactions                     every callback, oldest first
 */
import { randomBytes } from 'node:crypto';
import {
  type APIInteraction,
  type APIInteractionGuildMember,
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
  type APIModalSubmitTextInputComponent,
  ComponentType,
  GatewayDispatchEvents,
  InteractionType,
  Locale,
  type Permissions,
} from 'discord-api-types/v10';
import { FormErrors, SandboxError } from '../errors.js';
import { dispatch } from '../events.js';
import { requireChannel, requireMessage } from '../lookup.js';
import type { Route } from '../router.js';
import { BOT_USER, mintSnowflake, type SandboxState, type StoredInteraction, type StoredMessage } from '../state.js';
import { messageView } from '../views.js';
import { editMessage } from './messages.js';
import { memberView, requireMember, userView } from './members.js';
import { webhookMessages } from './webhooks.js';

const fieldsOf = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const SNOWFLAKE = /^[0-9]{1,20}$/;
/** What a member may do in a channel (view, send, read history, react); the bot may do anything. */
const MEMBER_PERMISSIONS = String((1n << 10n) | (1n << 11n) | (1n << 16n) | (1n << 6n)) as Permissions;
const BOT_PERMISSIONS = String(1n << 3n) as Permissions;
const SELECT_TYPES = new Set<number>([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

const unknownComponent = (customId: string) => new SandboxError(404, 10_000, `The message has no component with custom_id "${customId}".`);
const unknownInteraction = () => new SandboxError(404, 10062, 'Unknown interaction');
const noModal = () => new SandboxError(404, 10062, 'That interaction was not answered with a modal (callback type 9).');

/** The fields every interaction a member starts has: who, where, and the token to answer with. */
export function baseOf(state: SandboxState, channelId: string, userId: string) {
  const channel = requireChannel(state, channelId);
  const guildId = channel.guild_id;
  const who = guildId
    ? { guild_id: guildId, member: { ...memberView(state, guildId, userId), permissions: MEMBER_PERMISSIONS } as APIInteractionGuildMember }
    : { user: userView(state, userId) };
  return {
    id: mintSnowflake(),
    application_id: BOT_USER.id,
    token: randomBytes(48).toString('base64url'),
    version: 1 as const,
    channel_id: channelId,
    channel: { id: channelId, type: channel.type, ...(channel.name ? { name: channel.name } : {}) },
    app_permissions: BOT_PERMISSIONS,
    locale: Locale.EnglishUS,
    ...(guildId ? { guild_locale: Locale.EnglishUS } : {}),
    entitlements: [],
    authorizing_integration_owners: {},
    attachment_size_limit: 10 * 1024 * 1024,
    ...who,
  };
}

/** Keeps and dispatches an interaction a member started; answers what the control route returns. */
export function start(state: SandboxState, interaction: APIInteraction) {
  state.started.set(interaction.id, { interaction, token: interaction.token });
  dispatch(state, { t: GatewayDispatchEvents.InteractionCreate, d: interaction });
  return { interaction_id: interaction.id, interaction_token: interaction.token };
}

function checkMember(state: SandboxState, channelId: string, userId: unknown, errors: FormErrors): void {
  if (typeof userId !== 'string' || !SNOWFLAKE.test(userId)) errors.add(['user_id'], 'NUMBER_TYPE_COERCE', 'Must be a snowflake string.');
  errors.throwIfAny();
  const guildId = state.channels.get(channelId)?.guild_id;
  if (guildId) requireMember(state, guildId, userId as string);
}

/** A member clicks a button, or picks values in a select, of a message. */
function click(state: SandboxState, channelId: string, messageId: string, body: unknown) {
  const message = requireMessage(state, channelId, messageId);
  const b = fieldsOf(body);
  const errors = new FormErrors();
  if (typeof b.custom_id !== 'string' || b.custom_id === '')
    errors.add(['custom_id'], 'BASE_TYPE_REQUIRED', 'The custom_id of a component of the message is required.');
  if (b.values !== undefined && !(Array.isArray(b.values) && b.values.every((v) => typeof v === 'string'))) {
    errors.add(['values'], 'BASE_TYPE_ARRAY', 'Must be an array of strings (the picked options).');
  }
  checkMember(state, channelId, b.user_id, errors);
  const customId = b.custom_id as string;
  const component = message.components.flatMap((row) => row.components).find((c) => 'custom_id' in c && c.custom_id === customId);
  if (!component) throw unknownComponent(customId);
  if ('disabled' in component && component.disabled) throw new SandboxError(400, 50035, `The component "${customId}" is disabled: members cannot use it.`);
  const values = b.values as string[] | undefined;
  if (SELECT_TYPES.has(component.type)) checkPicked(component as SelectShape, values ?? [], errors);
  else if (values !== undefined) errors.add(['values'], 'BASE_TYPE_CHOICES', `"${customId}" is a button: send no values.`);
  errors.throwIfAny();
  const data = SELECT_TYPES.has(component.type)
    ? { custom_id: customId, component_type: component.type, values: values ?? [] }
    : { custom_id: customId, component_type: ComponentType.Button };
  const interaction = {
    ...baseOf(state, channelId, b.user_id as string),
    type: InteractionType.MessageComponent,
    data,
    message: messageView(message),
  } as APIMessageComponentInteraction;
  return start(state, interaction);
}

interface SelectShape {
  options?: { value: string }[];
  min_values?: number;
  max_values?: number;
}

/** The picked values must be the select's options (for a string select), as many as it allows. */
function checkPicked(select: SelectShape, values: string[], errors: FormErrors): void {
  const min = select.min_values ?? 1;
  const max = select.max_values ?? 1;
  if (values.length < min || values.length > max) errors.add(['values'], 'BASE_TYPE_BAD_LENGTH', `Pick between ${min} and ${max} values.`);
  const allowed = select.options?.map((o) => o.value);
  const unknown = allowed ? values.filter((v) => !allowed.includes(v)) : [];
  if (unknown.length > 0) errors.add(['values'], 'BASE_TYPE_CHOICES', `Not options of the select: ${unknown.join(', ')}; options are ${allowed!.join(', ')}.`);
}

/** The text inputs of a modal (in action rows or labels), as the bot sent them. */
function textInputsOf(modal: Record<string, unknown>): { custom_id: string; required?: boolean; min_length?: number; max_length?: number }[] {
  const components = Array.isArray(modal.components) ? (modal.components as Record<string, unknown>[]) : [];
  return components
    .flatMap((c) => (Array.isArray(c.components) ? (c.components as Record<string, unknown>[]) : c.component ? [fieldsOf(c.component)] : []))
    .filter((c) => c.type === ComponentType.TextInput && typeof c.custom_id === 'string') as ReturnType<typeof textInputsOf>;
}

/** A member submits the modal an interaction was answered with. */
function submit(state: SandboxState, interactionId: string, body: unknown) {
  const original = state.started.get(interactionId);
  const modal = state.interactions.find((c) => c.interaction_id === interactionId && c.type === 9);
  if (!original || !modal) throw noModal();
  const b = fieldsOf(body);
  const errors = new FormErrors();
  const channelId = original.interaction.channel_id!;
  checkMember(state, channelId, b.user_id, errors);
  const startedBy = original.interaction.member?.user.id ?? original.interaction.user?.id;
  if (b.user_id !== startedBy) errors.add(['user_id'], 'BASE_TYPE_CHOICES', `Only the member who was shown the modal (${startedBy}) can submit it.`);
  if (b.custom_id !== modal.data.custom_id) errors.add(['custom_id'], 'BASE_TYPE_CHOICES', `The modal's custom_id is "${String(modal.data.custom_id)}".`);
  const values = fieldsOf(b.values);
  if (b.values === undefined || b.values !== values) errors.add(['values'], 'DICT_TYPE_CONVERT', 'Must be an object: text input custom_id -> text.');
  const inputs = textInputsOf(modal.data);
  for (const key of Object.keys(values)) {
    if (!inputs.some((i) => i.custom_id === key))
      errors.add(['values', key], 'BASE_TYPE_CHOICES', `The modal has no text input "${key}"; it has ${inputs.map((i) => i.custom_id).join(', ')}.`);
  }
  for (const input of inputs) {
    const text = values[input.custom_id];
    if (text === undefined || text === '') {
      if (input.required !== false) errors.add(['values', input.custom_id], 'BASE_TYPE_REQUIRED', 'This field is required.');
      continue;
    }
    const min = input.min_length ?? 0;
    const max = input.max_length ?? 4000;
    if (typeof text !== 'string' || text.length < min || text.length > max) {
      errors.add(['values', input.custom_id], 'BASE_TYPE_BAD_LENGTH', `Must be text between ${min} and ${max} in length.`);
    }
  }
  errors.throwIfAny();
  const answered: APIModalSubmitTextInputComponent[] = inputs
    .filter((i) => typeof values[i.custom_id] === 'string')
    .map((i) => ({ type: ComponentType.TextInput, custom_id: i.custom_id, value: values[i.custom_id] as string }));
  const interaction = {
    ...baseOf(state, channelId, b.user_id as string),
    type: InteractionType.ModalSubmit,
    data: { custom_id: modal.data.custom_id as string, components: answered.map((c) => ({ type: ComponentType.ActionRow, components: [c] })) },
    ...(original.interaction.message ? { message: original.interaction.message } : {}),
  } as APIModalSubmitInteraction;
  return start(state, interaction);
}

/** An interaction as dispatched, and what it was answered: its callback, then its follow-ups. */
function interactionView(state: SandboxState, interactionId: string) {
  const started = state.started.get(interactionId);
  if (!started) throw unknownInteraction();
  const callbacks = state.interactions
    .filter((c) => c.interaction_id === interactionId)
    .map(({ type, data, time }) => ({ kind: 'callback', type, data, time }));
  const followUps = webhookMessages(state, BOT_USER.id, started.token).map((m) => ({ kind: 'follow-up', message: messageView(m) }));
  return { interaction: started.interaction, answers: [...callbacks, ...followUps] };
}

/** Type 7 on a component's interaction edits the clicked message, as the platform does. */
function updateClicked(state: SandboxState, started: StoredInteraction | undefined, data: Record<string, unknown>): void {
  const message: StoredMessage | undefined = started?.interaction.message
    ? state.channels.get(started.interaction.message.channel_id)?.messages.get(started.interaction.message.id)
    : undefined;
  if (!message) throw new SandboxError(400, 50035, 'Callback type 7 updates the message of a component interaction; this interaction has none.');
  editMessage(state, message.channel_id, message.id, data);
}

function answer(state: SandboxState, interactionId: string, token: string, body: unknown): void {
  const b = fieldsOf(body);
  const data = fieldsOf(b.data);
  const errors = new FormErrors();
  if (![4, 5, 6, 7, 8, 9].includes(b.type as number)) errors.add(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12).');
  const startedType = state.started.get(interactionId)?.interaction.type;
  // An autocomplete interaction is answered with its choices (8) and nothing else; choices answer nothing else.
  if (startedType === InteractionType.ApplicationCommandAutocomplete && b.type !== 8)
    errors.add(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'An autocomplete interaction is answered with type 8 (its choices).');
  if (b.type === 8 && startedType !== undefined && startedType !== InteractionType.ApplicationCommandAutocomplete)
    errors.add(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'Type 8 answers an autocomplete interaction only.');
  if (
    (b.type === 6 || b.type === 7) &&
    startedType !== undefined &&
    startedType !== InteractionType.MessageComponent &&
    startedType !== InteractionType.ModalSubmit
  )
    errors.add(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'Types 6 and 7 answer a component (or a modal on a message) only.');
  if (b.type === 8) {
    const choices = Array.isArray(data.choices) ? data.choices : null;
    if (!choices || choices.length > 25) errors.add(['data', 'choices'], 'BASE_TYPE_MAX_LENGTH', 'An array of 25 or fewer choices.');
    for (const [i, choice] of (choices ?? []).entries()) {
      const c = fieldsOf(choice);
      if (typeof c.name !== 'string' || c.name.length === 0 || c.name.length > 100)
        errors.add(['data', 'choices', i, 'name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
      if (!(typeof c.value === 'number' || (typeof c.value === 'string' && c.value.length <= 100)))
        errors.add(['data', 'choices', i, 'value'], 'BASE_TYPE_CHOICES', 'A string of 100 or fewer in length, or a number.');
    }
  }
  if (b.type === 4 && (typeof data.content !== 'string' || data.content.length === 0 || data.content.length > 2000) && !Array.isArray(data.embeds)) {
    errors.add(['data', 'content'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 2000 in length.');
  }
  if (b.type === 9) {
    if (typeof data.custom_id !== 'string' || data.custom_id.length === 0 || data.custom_id.length > 100)
      errors.add(['data', 'custom_id'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (typeof data.title !== 'string' || data.title.length === 0 || data.title.length > 45)
      errors.add(['data', 'title'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.');
    if (!Array.isArray(data.components) || data.components.length === 0 || data.components.length > 5)
      errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  }
  errors.throwIfAny();
  const started = state.started.get(interactionId);
  if (started && started.token !== token) throw new SandboxError(401, 50027, 'Invalid Webhook Token');
  if (state.interactions.some((i) => i.interaction_id === interactionId)) throw new SandboxError(400, 40060, 'Interaction has already been acknowledged.');
  if (b.type === 7) updateClicked(state, started, data);
  state.interactions.push({ interaction_id: interactionId, token, type: b.type as number, data, time: new Date().toISOString() });
}

export const interactionRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/interactions/:interaction/:token/callback',
    public: true,
    handle: ({ state, params, body }) => (answer(state, params.interaction!, params.token!, body), { status: 204 }),
  },
];

export const interactionControlRoutes: Route[] = [
  { method: 'GET', pattern: '/interactions', handle: ({ state }) => ({ status: 200, body: state.interactions }) },
  { method: 'GET', pattern: '/interactions/:interaction', handle: ({ state, params }) => ({ status: 200, body: interactionView(state, params.interaction!) }) },
  {
    method: 'POST',
    pattern: '/interactions/:interaction/submit',
    handle: ({ state, params, body }) => ({ status: 200, body: submit(state, params.interaction!, body) }),
  },
  {
    method: 'POST',
    pattern: '/channels/:channel/messages/:message/click',
    handle: ({ state, params, body }) => ({ status: 200, body: click(state, params.channel!, params.message!, body) }),
  },
];
