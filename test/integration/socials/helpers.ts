/** What the socials tests share: the sandbox sources' control routes, a guild watching them, the messages a channel got. */
import { ANNOUNCE_JOB } from '#functions/socials/fan-out.js';
import type { Message } from '#shared/platform/types.js';
import { SPREAD } from '#shared/scheduler/keys.js';
import { queryDue } from '#shared/scheduler/store.js';
import { ok, snowflake, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { membersOf } from '../welcoming/members-sandbox.js';
export { ok };

export const SO = '/modules/socials';

/** The sandbox sources' control routes (infra/local/sandbox/sources/routes.ts). */
export function sourcesOf(service: TestService) {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/_sandbox/sources${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox sources ${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    origin,
    forum: (community: string) => control('POST', `/forum/${community}`),
    post: (community: string, title: string, extra: Record<string, unknown> = {}) => control('POST', `/forum/${community}/posts`, { title, ...extra }),
    account: (account: string) => control('POST', `/stream/${account}`),
    goLive: (account: string, title: string) => control('POST', `/stream/${account}/live`, { title }),
    goOffline: (account: string) => control('DELETE', `/stream/${account}/live`),
    channel: (handle: string) => control('POST', `/video/${handle}`) as Promise<{ uploads_playlist_id: string }>,
    upload: (handle: string, title: string) => control('POST', `/video/${handle}/videos`, { title }) as Promise<{ video_id: string }>,
    feed: (name: string, format: 'rss' | 'atom' = 'rss') => control('POST', '/feeds', { name, format, title: name }).then((r: { url: string }) => r.url),
    entry: (name: string, entry: Record<string, unknown>) => control('POST', `/feeds/${name}/entries`, entry),
    meme: (meme: Record<string, unknown>) => control('POST', '/memes', meme),
    fault: (fault: Record<string, unknown>) => control('POST', '/faults', fault),
    requests: () => control('GET', '/requests') as Promise<Record<string, number>>,
  };
}

/** A guild with socials on and every monitor component on. */
export async function socialGuild(service: TestService): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', `${SO}/enable`, { body: { guild_id: guild } }));
  ok(
    await service.call('PUT', `${SO}/settings`, {
      body: { guild_id: guild, monitor_forum: true, monitor_rss: true, monitor_stream: true, monitor_video: true },
    }),
  );
  return guild;
}

const FIELD = { forum: 'community', stream: 'stream_account', rss: 'rss_feed', video: 'video_channel_handle' } as const;

/** The guild watches a source in `channel`, which the sandbox first knows as a channel of the guild. */
export async function watch(service: TestService, guild: string, kind: keyof typeof FIELD, identifier: string, channel: string, mention = false) {
  await sandboxOf(service).channelIn(guild, channel);
  return service.call('POST', `${SO}/entries/${kind}`, {
    looseBody: { guild_id: guild, [FIELD[kind]]: identifier, target_channel_id: channel, mention_everyone: mention },
  });
}

/** What the service posted in a channel, oldest first. */
export async function posted(service: TestService, channel: string): Promise<Message[]> {
  const res = await membersOf(service).api<Message[]>(`/channels/${channel}/messages?limit=100`);
  return res.status === 200 ? [...res.body].reverse() : [];
}

/** A fresh lower-case name for a source, distinct per test. */
/** What a channel shows once the announcements handed out so far have run. */
export async function shownIn(service: TestService, channel: string): Promise<string[]> {
  await announced();
  return (await posted(service, channel)).map((m) => m.content);
}

export const unique = (prefix: string) => `${prefix}${Math.floor(Math.random() * 1e9).toString(36)}`;

/**
 * Waits until every unit of an announcement handed out so far has run (none
 * is left in the due index; a unit given up is parked, out of it), so a test
 * sees what the polls it ran announced. The index is read twice, 100 ms
 * apart, its shards in turn and the second time in the other order: a
 * chain's next unit may land in a shard read a moment before its
 * predecessor's shard.
 */
export async function announced(timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const shards = Array.from({ length: SPREAD }, (_, shard) => shard);
  // One shard after another: a unit writes its successor before its own item goes, so a pass reading the
  // predecessor's shard first sees one of the two; the second pass reads in the other order.
  const idle = async (order: number[]) => {
    for (const shard of order) if ((await queryDue(ANNOUNCE_JOB, shard, Number.MAX_SAFE_INTEGER, 1)).length > 0) return false;
    return true;
  };
  for (;;) {
    if ((await idle(shards)) && (await new Promise((resolve) => setTimeout(resolve, 100)), await idle([...shards].reverse()))) return;
    if (Date.now() > deadline) throw new Error(`announcement units still waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
