/**
 * Exactly once across the whole loop (behaviour §16), over HTTP in local
 * mode: each create that posts a platform message and each internal event
 * route that posts one, called twice with one `Idempotency-Key` — one after
 * the other, both at once, and again after the platform stored the message
 * but failed the call (a 502) — leaves one message on the sandbox and one
 * stored record, and a repeat of a final answer is that answer replayed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { type CallResult, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { pollBody } from '../polls/helpers.js';
import { panelBody } from '../reactionroles/fixture.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const sandbox = () => sandboxOf(service);
const origin = () => service.sandboxUrl!.replace(/\/api\/v10$/, '');

/** A call of the route under test: what it sends, where its message lands, and how many records it leaves. */
interface Case {
  method: 'POST' | 'PUT' | 'DELETE';
  path: string;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  /** The channel its message is posted in. */
  channel: string;
  /** The records it stored, as a client lists them (null: it stores none of its own). */
  records: (() => Promise<number>) | null;
}

async function guildWith(module: string): Promise<{ guild: string; channel: string }> {
  const guild = snowflake();
  ok(await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: guild } }));
  return { guild, channel: await sandbox().channelIn(guild) };
}

/** How many records a list route shows: its `total`, or the length of its first page's `list`. */
const listed = (path: string, query: Record<string, string>, list?: string) => async (): Promise<number> => {
  const page = ok(await service.call('GET', path, { query: { page_size: 50, ...query } }));
  return list ? page[list].length : page.total;
};
const total = (path: string, guild: string) => listed(path, { guild_id: guild });

/** Each route under test, by route id: a fresh guild and the call to make twice. */
const CASES: Record<string, () => Promise<Case>> = {
  'polls.create-poll': async () => {
    const { guild, channel } = await guildWith('polls');
    return {
      method: 'POST',
      path: '/modules/polls/entries',
      body: pollBody({ guild, channel, owner: snowflake() }),
      channel,
      records: total('/modules/polls/entries', guild),
    };
  },
  'giveaways.create-entry': async () => {
    const { guild, channel } = await guildWith('giveaways');
    const body = { guild_id: guild, channel_id: channel, giveaway_owner_id: snowflake(), prize: 'A mug', winner_count: 1, end_time: '1h' };
    return { method: 'POST', path: '/modules/giveaways/entries', body, channel, records: total('/modules/giveaways/entries', guild) };
  },
  'reactionroles.create-panel': async () => {
    const { guild, channel } = await guildWith('reactionroles');
    return {
      method: 'POST',
      path: '/modules/reactionroles/panels',
      body: panelBody(guild, channel),
      channel,
      records: total('/modules/reactionroles/panels', guild),
    };
  },
  'verifier.create-verification': async () => {
    const { guild, channel } = await guildWith('verifier');
    const role = await sandbox().roleIn(guild);
    ok(await service.call('PUT', '/modules/verifier/settings', { body: { guild_id: guild, verifier_channel: channel, verifier_verified_role_ids: [role] } }));
    const member = snowflake();
    return {
      method: 'POST',
      path: '/modules/verifier/event/create-verification',
      body: { guild_id: guild, requester: member },
      headers: { 'x-acting-user-id': member },
      channel,
      records: listed('/modules/verifier/entries', { guild_id: guild }, 'entries'),
    };
  },
  'tags.send-entry': async () => {
    const { guild, channel } = await guildWith('tags');
    const tag = ok(
      await service.call('POST', '/modules/tags/entries', {
        body: { guild_id: guild, owner_id: snowflake(), content: 'Hello there', visibility: 1, names: ['hi'] },
      }),
    );
    return { method: 'POST', path: `/modules/tags/entries/${tag.entry.tag_id}/send`, body: { guild_id: guild, channel_id: channel }, channel, records: null };
  },
  'serverstats.starboard-check-add': async () => {
    const guild = snowflake();
    ok(await service.call('POST', '/modules/serverstats/enable', { body: { guild_id: guild } }));
    const board = ok(
      await service.call('PUT', '/modules/serverstats/settings', { body: { guild_id: guild, starboard_channel_id: 'create', starboard_enabled: true } }),
    ).settings.starboard_channel_id as string;
    const channel = await sandbox().channelIn(guild);
    const message = await sandbox().post(channel, snowflake(), { content: 'Star me' });
    for (let i = 0; i < 3; i++) await sandbox().react(channel, message.id, '⭐', snowflake());
    return {
      method: 'POST',
      path: '/modules/serverstats/starboard/check/add',
      body: { guild_id: guild, channel_id: channel, message_id: message.id },
      channel: board,
      records: null,
    };
  },
  'invite-tracker.join-check': async () => {
    const { guild, channel } = await guildWith('invite-tracker');
    const messages = await sandbox().channelIn(guild);
    ok(
      await service.call('PUT', '/modules/invite-tracker/settings', {
        body: { guild_id: guild, join_messages_enabled: true, join_messages_channel: messages, join_message_content: 'Welcome <user_mention>!' },
      }),
    );
    const inviter = snowflake();
    const invite = ok(
      await service.call('POST', '/modules/invite-tracker/invites', {
        body: { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
        headers: { 'x-acting-user-id': inviter },
      }),
    );
    const member = snowflake();
    const joined = await fetch(`${origin()}/_sandbox/guilds/${guild}/members/${member}/join-via-invite/${invite.invite_code}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(joined.ok).toBe(true);
    return {
      method: 'POST',
      path: '/modules/invite-tracker/events/join/check-invite',
      body: { guild_id: guild },
      headers: { 'x-acting-user-id': member },
      channel: messages,
      records: listed('/modules/invite-tracker/stats/uses', { guild_id: guild, inviter_id: inviter }, 'stats_uses'),
    };
  },
};

/** The route of a case, from the route table: every case is a mutating route that is internal or a create. */
const routeOf = (id: string) => routes.find((route) => route.id === id)!;

let keys = 0;
const newKey = () => `evt:${Date.now()}.${++keys}`;

function send(c: Case, key: string): Promise<CallResult> {
  return service.call(c.method, c.path, { looseBody: c.body, headers: { ...c.headers, 'Idempotency-Key': key } });
}

async function messagesIn(channel: string): Promise<number> {
  const state = await sandbox().state();
  return state.channels.find((ch) => ch.id === channel)?.messages.length ?? 0;
}

/** A repeat until the first call has answered (409 while it runs), as a bot honouring Retry-After would. */
async function repeatUntilAnswered(c: Case, key: string): Promise<CallResult> {
  for (let i = 0; ; i++) {
    const res = await send(c, key);
    if (res.status !== 409 || i > 50) return res;
    expect(res.body.error.name).toBe('ConflictError');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('one Idempotency-Key, one effect', () => {
  it('covers message-posting creates and internal event routes of the route table', () => {
    for (const id of Object.keys(CASES)) {
      const route = routeOf(id);
      expect(route, id).toBeDefined();
      expect(route.method).not.toBe('GET');
      expect(route.access === 'internal' || id.includes('create')).toBe(true);
    }
  });

  describe.each(Object.keys(CASES))('%s', (id) => {
    it('called twice in turn: one message, one record, the second answer the first replayed', async () => {
      const c = await CASES[id]!();
      const key = newKey();
      const first = await send(c, key);
      expect(first.status, first.text).toBe(200);
      const second = await send(c, key);
      expect({ status: second.status, text: second.text, replayed: second.headers.get('idempotent-replayed') }).toEqual({
        status: 200,
        text: first.text,
        replayed: 'true',
      });
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(await messagesIn(c.channel)).toBe(1);
      if (c.records) expect(await c.records()).toBe(1);
    });

    it('called twice at once: one message, one record, both answers the same', async () => {
      const c = await CASES[id]!();
      const key = newKey();
      const [a, b] = await Promise.all([send(c, key), send(c, key)]);
      const statuses = [a.status, b.status].sort();
      expect([
        [200, 200],
        [200, 409],
      ]).toContainEqual(statuses);
      const answered = a.status === 200 ? a : b;
      const after = await repeatUntilAnswered(c, key);
      expect({ status: after.status, text: after.text, replayed: after.headers.get('idempotent-replayed') }).toEqual({
        status: 200,
        text: answered.text,
        replayed: 'true',
      });
      expect(await messagesIn(c.channel)).toBe(1);
      if (c.records) expect(await c.records()).toBe(1);
    });

    it('called again after the platform stored its message but the call failed: the same message, one record', async () => {
      const c = await CASES[id]!();
      const key = newKey();
      // Every try of the first call's post is stored, then answered 500: the call answers 502, which is not kept.
      await sandbox().fault({ method: 'POST', path: `^/channels/${c.channel}/messages$`, status: 500, after_effect: true, times: 3 });
      const first = await send(c, key);
      expect(first.status, first.text).toBe(502);
      expect(await messagesIn(c.channel)).toBe(1);
      await sandbox().clearFaults();
      const second = await send(c, key);
      expect(second.status, second.text).toBe(200);
      expect(second.headers.get('idempotent-replayed')).toBeNull();
      expect(await messagesIn(c.channel)).toBe(1);
      if (c.records) expect(await c.records()).toBe(1);
      // And now the answer is kept.
      const third = await send(c, key);
      expect([third.status, third.text, third.headers.get('idempotent-replayed')]).toEqual([200, second.text, 'true']);
    });
  });
});
