/**
 * Talking to the sandbox platform's control routes (`/_sandbox/...`) from a
 * test: what members do, what the platform refuses, and what it holds.
 */
import type { APIMessageComponentEmoji, APISelectMenuOption } from 'discord-api-types/v10';
import type { LoggedRequest } from '#infra/local/sandbox/state.js';
import type { SandboxSnapshot } from '#infra/local/sandbox/snapshot.js';
import type { Message as PlatformMessage } from '#shared/platform/types.js';
import { type TestService, snowflake as newSnowflake } from './local.js';

/** A component as a test reads it back: the service posts buttons and string selects in action rows. */
export interface ShownComponent {
  type: number;
  custom_id?: string;
  label?: string;
  disabled?: boolean;
  style?: number;
  /** A link button's address. */
  url?: string;
  emoji?: APIMessageComponentEmoji;
  /** A string select's choices. */
  options?: APISelectMenuOption[];
  placeholder?: string;
  min_values?: number;
  max_values?: number;
}
/** A message as the sandbox shows it, its components read as action rows. */
export type Message = Omit<PlatformMessage, 'components'> & { components?: { type: number; components: ShownComponent[] }[] };

/** An injected failure: the next `times` requests matching `method` and the `path` regex get `status` (instead of, or with `after_effect` after, their effect). */
export interface FaultInput {
  method?: string;
  /** Regular expression source matched against the API path after `/api/v10` (raw and URL-decoded). */
  path: string;
  status: number;
  times?: number;
  retry_after?: number;
  /** Wait this long before answering. */
  delay_ms?: number;
  code?: number;
  message?: string;
  /** Carry the request out (post the message, answer the interaction), then answer `status`: a failure after the effect. */
  after_effect?: boolean;
}

/** An emoji as a reaction path takes it: unicode text, or `name:id` for a custom emoji. */
const emojiSegment = (emoji: string) => encodeURIComponent(emoji);

export interface SandboxControl {
  /** `http://host:port` of the sandbox. */
  origin: string;
  state(): Promise<SandboxSnapshot>;
  /** A message as the platform shows it, or null when it does not exist. */
  message(channelId: string, messageId: string): Promise<Message | null>;
  /** A member posts a message in a channel. */
  post(channelId: string, authorId: string, body: Record<string, unknown>): Promise<Message>;
  /** A member reacts / takes their reaction back (on the sandbox only: no event reaches the service). */
  react(channelId: string, messageId: string, emoji: string, userId: string): Promise<void>;
  unreact(channelId: string, messageId: string, emoji: string, userId: string): Promise<void>;
  /** Who reacted with `emoji` (unicode text, or `name:id` for a custom emoji), the bot included. */
  reactors(channelId: string, messageId: string, emoji: string): Promise<string[]>;
  roles(guildId: string, userId: string): Promise<string[]>;
  setRoles(guildId: string, userId: string, roles: string[]): Promise<void>;
  forbidRole(guildId: string, roleId: string): Promise<void>;
  allowRole(guildId: string, roleId: string): Promise<void>;
  fault(input: FaultInput): Promise<void>;
  clearFaults(): Promise<void>;
  /** What the service answered through an interaction webhook, oldest first. */
  webhook(applicationId: string, token: string): Promise<Message[]>;
  requests(): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  deleteChannel(channelId: string): Promise<void>;
  /** A text channel of the guild, as the platform would know it; answers its ID (a new one unless given). */
  channelIn(guildId: string, channelId?: string): Promise<string>;
  /** A role of the guild, as the platform would know it; answers its ID (a new one unless given). */
  roleIn(guildId: string, roleId?: string): Promise<string>;
}

/** The control client of the service's sandbox platform. */
export function sandboxOf(service: TestService): SandboxControl {
  if (!service.sandboxUrl) throw new Error('this service runs against a real platform, not the sandbox');
  const api = service.sandboxUrl;
  const origin = api.replace(/\/api\/v10$/, '');

  const call = async (method: string, path: string, body?: unknown, base = `${origin}/_sandbox`) => {
    const res = await fetch(base + path, {
      method,
      headers: body === undefined ? { authorization: 'Bot test' } : { 'content-type': 'application/json', authorization: 'Bot test' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };

  const control: SandboxControl = {
    origin,
    state: () => call('GET', '/state'),
    async message(channelId, messageId) {
      const state = await control.state();
      const channel = state.channels.find((c) => c.id === channelId);
      return (channel?.messages.find((m) => m.id === messageId) as Message | undefined) ?? null;
    },
    post: (channelId, authorId, body) => call('POST', `/channels/${channelId}/messages`, { author_id: authorId, ...body }),
    react: (c, m, emoji, user) => call('PUT', `/channels/${c}/messages/${m}/reactions/${emojiSegment(emoji)}/${user}`),
    unreact: (c, m, emoji, user) => call('DELETE', `/channels/${c}/messages/${m}/reactions/${emojiSegment(emoji)}/${user}`),
    async reactors(c, m, emoji) {
      const users = (await call('GET', `/channels/${c}/messages/${m}/reactions/${emojiSegment(emoji)}?limit=100`, undefined, api)) as { id: string }[];
      return users.map((u) => u.id).sort();
    },
    async roles(guildId, userId) {
      const state = await control.state();
      return [...(state.members[guildId]?.[userId] ?? [])].sort();
    },
    setRoles: (g, u, roles) => call('PUT', `/guilds/${g}/members/${u}`, { roles }),
    forbidRole: (g, r) => call('POST', `/guilds/${g}/roles/${r}/forbid`),
    allowRole: (g, r) => call('DELETE', `/guilds/${g}/roles/${r}/forbid`),
    fault: (input) => call('POST', '/faults', input),
    clearFaults: () => call('DELETE', '/faults'),
    webhook: (app, token) => call('GET', `/webhooks/${app}/${encodeURIComponent(token)}`),
    requests: () => call('GET', '/requests'),
    clearRequests: () => call('DELETE', '/requests'),
    deleteChannel: (c) => call('DELETE', `/channels/${c}`, undefined, api),
    async channelIn(guildId, channelId = newSnowflake()) {
      await call('PUT', `/channels/${channelId}`, { guild_id: guildId });
      return channelId;
    },
    async roleIn(guildId, roleId = newSnowflake()) {
      await call('PUT', `/guilds/${guildId}/roles/${roleId}`, { name: `role-${roleId.slice(-4)}` });
      return roleId;
    },
  };
  return control;
}

/** A request to a sandbox started alone (its own token is not checked: `Bot x`), as the bot or a control route; the parsed body, if any. */
export async function sandboxCall(method: string, url: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = { Authorization: 'Bot x', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
  const response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** A control-route caller (`/_sandbox...`) of a sandbox at `origin()`: the status and the parsed body, null when empty. */
export function sandboxControl(origin: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${origin()}/_sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
}
