/**
 * The sandbox platform's guild and member control routes (`/_sandbox`, see
 * `infra/local/sandbox/routes/members.ts`), for tests of the modules that
 * react to joins and leaves (welcoming, invite tracker, serverstats).
 */
import type { APIGuildMember } from 'discord-api-types/v10';
import type { TestService } from '#test/helpers/local.js';

export interface JoinOptions {
  joined_at?: string;
  nick?: string | null;
  username?: string;
  global_name?: string | null;
  bot?: boolean;
  roles?: string[];
}

export interface MemberControl {
  nameGuild(guildId: string, name: string): Promise<void>;
  join(guildId: string, userId: string, options?: JoinOptions): Promise<APIGuildMember>;
  /** Many users join at once (up to 10,000 a call), at `joined_at` (else now), holding `roles`. */
  joinMany(guildId: string, userIds: string[], options?: Pick<JoinOptions, 'joined_at' | 'roles'>): Promise<{ members: number }>;
  leave(guildId: string, userId: string): Promise<void>;
  refuseDms(userId: string): Promise<void>;
  acceptDms(userId: string): Promise<void>;
  /** GET on the platform API itself, as the service would call it. */
  api<T = unknown>(path: string): Promise<{ status: number; body: T }>;
}

export function membersOf(service: TestService): MemberControl {
  if (!service.sandboxUrl) throw new Error('this service runs against a real platform, not the sandbox');
  const api = service.sandboxUrl;
  const control = `${api.replace(/\/api\/v10$/, '')}/_sandbox`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(control + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    nameGuild: (g, name) => call('PUT', `/guilds/${g}`, { name }),
    join: (g, u, options = {}) => call('POST', `/guilds/${g}/members/${u}/join`, options),
    joinMany: (g, ids, options = {}) => call('POST', `/guilds/${g}/members/join-many`, { user_ids: ids, ...options }),
    leave: (g, u) => call('POST', `/guilds/${g}/members/${u}/leave`),
    refuseDms: (u) => call('POST', `/users/${u}/refuse-dms`),
    acceptDms: (u) => call('DELETE', `/users/${u}/refuse-dms`),
    async api<T>(path: string) {
      const res = await fetch(api + path, { headers: { authorization: 'Bot test' } });
      return { status: res.status, body: (await res.json()) as T };
    },
  };
}
