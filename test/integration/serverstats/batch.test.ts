/**
 * POST /stats/batch (CONTRACT §18): a batch answers, on every fetch and
 * filter, what the same recordings made one by one answer; it is validated
 * record by record, skips families switched off, is stored once under an
 * Idempotency-Key, and its records are covered by privacy and settings deletes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, type Family, filtersOf } from '#functions/serverstats/families.js';
import { db } from '#shared/db/client.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';
import { SS, fetchStats, ok, recordStat, sample, statsGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const byPath = (path: string) => FAMILIES.find((f) => f.path === path)!;
const batch = (body: unknown, headers: Record<string, string> = {}) => service.call('POST', `${SS}/stats/batch`, { looseBody: body, headers });
const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

type Stat = Record<string, unknown>;
/** What two guilds' answers share: the records without their guild and ids (ids are the service's, not the caller's). */
const shown = (stats: Stat[]) => stats.map(({ id: _id, guild_id: _guild, ...rest }) => rest);

/** Every page of a fetch at `limit`, following next_cursor. */
async function walk(family: Family, query: Record<string, string | number>): Promise<Stat[][]> {
  const pages: Stat[][] = [];
  let cursor: string | null = null;
  do {
    const page = ok(await fetchStats(service, family, { ...query, ...(cursor ? { cursor } : {}) }));
    pages.push(shown(page.stats));
    cursor = page.next_cursor;
  } while (cursor && pages.length < 30);
  return pages;
}

/** The time a record stands at: its own time field. */
const timeOf = (stat: Stat) => String(stat.timestamp ?? stat.start_time ?? stat.joined_at);

describe('a batch and the same recordings one by one', () => {
  it.each(FAMILIES.map((family) => [family.path, family] as [string, Family]))('answer alike on every fetch, filter and page: %s', async (_path, family) => {
    const [single, batched] = [await statsGuild(service), await statsGuild(service)];
    const [a, b] = [snowflake(), snowflake()];
    const [c1, c2] = [snowflake(), snowflake()];
    // The recordings, in order: three of the family (two members, two channels), and for voice a leave.
    const calls: { family: Family; method: 'POST' | 'PUT'; body: Record<string, unknown> }[] = [];
    for (const [member, channel] of [
      [a, c1],
      [b, c1],
      [a, c2],
    ] as const) {
      const body = sample(family, single, member, channel).body;
      if (family.shape.kind === 'presence') body.activities = [{ activity_type: 0, name: `game of ${channel}`, details: null, state: null }];
      calls.push({ family, method: 'POST', body });
    }
    if (family.shape.kind === 'voice') calls.push({ family, method: 'PUT', body: { guild_id: single, channel_id: c1, left_member_id: b } });
    for (const call of calls) {
      ok(await recordStat(service, call.family, call.body, call.method));
      await pause();
    }

    // Each recording's time, as the single guild stored it: the n-th of a family is its n-th oldest record.
    const stored = new Map<string, Stat[]>([[family.path, [...ok(await fetchStats(service, family, { guild_id: single })).stats].reverse()]]);
    const seen = new Map<string, number>();
    const records = calls.map(({ method, body }) => {
      const { guild_id: _guild, ...fields } = body;
      if (method === 'PUT') {
        const session = stored.get(family.path)!.find((s) => s.user_id === b && s.channel_id === c1)!;
        return { family: 'voice/left', at: String(session.left_at), ...fields };
      }
      const n = seen.get(family.path) ?? 0;
      seen.set(family.path, n + 1);
      // Presence records one record per activity: the n-th recording opened the n-th.
      const at = timeOf(stored.get(family.path)![n]!);
      return { family: family.shape.kind === 'voice' ? 'voice/joined' : family.path, at, ...fields };
    });
    const answer = ok(await batch({ guild_id: batched, records: records.map((r) => ({ ...r, guild_id: undefined })) }));
    expect(answer).toEqual({ recorded: records.length, skipped: 0 });

    {
      const filters = filtersOf(family.shape);
      const queries: Record<string, string | number>[] = [{}, { days: 30 }, { limit: 2 }, { limit: 1 }];
      if (filters.user) queries.push({ user_id: a }, { user_id: b, limit: 1 });
      if (filters.channel) queries.push({ channel_id: c1 }, { channel_id: c2, limit: 1 });
      if (filters.user && filters.channel) queries.push({ user_id: a, channel_id: c1 }, { user_id: a, channel_id: c2, limit: 1 });
      for (const query of queries) {
        const one = await walk(family, { guild_id: single, ...query });
        const many = await walk(family, { guild_id: batched, ...query });
        expect({ family: family.path, query, pages: many }).toEqual({ family: family.path, query, pages: one });
        expect(one.flat().length, `${family.path} ${JSON.stringify(query)}`).toBeGreaterThan(0);
      }
    }
  });

  it('merges batched records with single ones in one newest-first order', async () => {
    const guild = await statsGuild(service);
    const commands = byPath('commands/used');
    const now = Date.now();
    const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
    ok(
      await batch({
        guild_id: guild,
        records: [5, 3, 1].map((m) => ({ family: 'commands/used', at: at(m), initiator_id: snowflake(), command: `batched ${m}` })),
      }),
    );
    ok(await recordStat(service, commands, { guild_id: guild, initiator_id: snowflake(), command: 'single now' }));
    ok(
      await batch({
        guild_id: guild,
        records: [4, 2].map((m) => ({ family: 'commands/used', at: at(m), initiator_id: snowflake(), command: `batched ${m}` })),
      }),
    );
    const pages = await walk(commands, { guild_id: guild, limit: 2 });
    expect(pages.flat().map((s) => s.command)).toEqual(['single now', 'batched 1', 'batched 2', 'batched 3', 'batched 4', 'batched 5']);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2, 0]);
  });
});

describe('validation', () => {
  const message = () => ({
    family: 'messages/sent',
    at: new Date().toISOString(),
    channel_id: snowflake(),
    author_id: snowflake(),
    message_id: snowflake(),
  });

  it('refuses a bad record with a 422 naming its index and field, and stores nothing', async () => {
    const guild = await statsGuild(service);
    const { channel_id: _c, ...noChannel } = message();
    const cases: [unknown, string][] = [
      [noChannel, "'records[1].channel_id'"],
      [{ ...message(), author_id: 'abc' }, "'records[1].author_id'"],
      [{ ...message(), family: 'messages/edited' }, "'records[1].family'"],
      [{ ...message(), family: undefined }, "'records[1].family'"],
      [{ family: 'members/total', at: new Date().toISOString(), current_members: -1 }, "'records[1].current_members'"],
      [{ family: 'commands/used', at: new Date().toISOString(), initiator_id: snowflake(), command: '' }, "'records[1].command'"],
      ['text', "'records[1]'"],
    ];
    for (const [bad, field] of cases) {
      const res = await batch({ guild_id: guild, records: [message(), bad, message()] });
      expect({ bad, status: res.status }).toEqual({ bad, status: 422 });
      expect(errorOf(res).message).toContain(field);
    }
    expect(ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild, days: 30 })).stats).toEqual([]);
    expect(ok(await fetchStats(service, byPath('members/total'), { guild_id: guild, days: 30 })).stats).toEqual([]);
  });

  it('takes `at` up to 15 minutes old and not in the future, as ISO 8601', async () => {
    const guild = await statsGuild(service);
    const joined = (at: unknown) => ({ family: 'members/joined', at, joined_member_id: snowflake() });
    const now = Date.now();
    for (const at of [new Date(now - 16 * 60_000).toISOString(), new Date(now + 60_000).toISOString(), 'yesterday', '2026-12-06', 1765000000000, undefined]) {
      const res = await batch({ guild_id: guild, records: [joined(at)] });
      expect({ at, status: res.status }).toEqual({ at, status: 422 });
      expect(errorOf(res).message).toContain("'records[0].at'");
    }
    const earlier = new Date(now - 14 * 60_000);
    // An offset is the same instant: stored as the table keeps times (UTC, milliseconds).
    const offset = `${new Date(earlier.getTime() + 3_600_000).toISOString().slice(0, 19)}+01:00`;
    ok(await batch({ guild_id: guild, records: [joined(offset)] }));
    const [stat] = ok(await fetchStats(service, byPath('members/joined'), { guild_id: guild })).stats;
    expect(stat.timestamp).toBe(`${earlier.toISOString().slice(0, 19)}.000Z`);
  });

  it('takes 1 to 500 records', async () => {
    const guild = await statsGuild(service);
    const joined = () => ({ family: 'members/joined', at: new Date().toISOString(), joined_member_id: snowflake() });
    for (const n of [0, 501]) {
      const res = await batch({ guild_id: guild, records: Array.from({ length: n }, joined) });
      expect({ n, status: res.status }).toEqual({ n, status: 422 });
      expect(errorOf(res).message).toContain("'records'");
    }
    expect(ok(await batch({ guild_id: guild, records: Array.from({ length: 500 }, joined) }))).toEqual({ recorded: 500, skipped: 0 });
    const all = await walk(byPath('members/joined'), { guild_id: guild, limit: 1000 });
    expect(all.flat()).toHaveLength(500);
  });

  it('is internal: a guild key gets 403, and a disabled module 409', async () => {
    const guild = await statsGuild(service);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    const res = await service.call('POST', `${SS}/stats/batch`, { token: key, looseBody: { guild_id: guild, records: [message()] } });
    expect(res.status).toBe(403);
    expect((await batch({ guild_id: snowflake(), records: [message()] })).status).toBe(409);
  });
});

describe('what a batch stores', () => {
  it('skips the families switched off, and counts them', async () => {
    const guild = await statsGuild(service);
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, stats_messages_enabled: false } }));
    const at = new Date().toISOString();
    const answer = ok(
      await batch({
        guild_id: guild,
        records: [
          { family: 'messages/sent', at, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() },
          { family: 'commands/used', at, initiator_id: snowflake(), command: 'help' },
          { family: 'messages/deleted', at, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() },
        ],
      }),
    );
    expect(answer).toEqual({ recorded: 1, skipped: 2 });
    expect(ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild })).stats).toEqual([]);
    expect(ok(await fetchStats(service, byPath('messages/deleted'), { guild_id: guild })).stats).toEqual([]);
    expect(ok(await fetchStats(service, byPath('commands/used'), { guild_id: guild })).stats).toHaveLength(1);
  });

  it('stores a batch once under one Idempotency-Key', async () => {
    const guild = await statsGuild(service);
    const body = { guild_id: guild, records: [{ family: 'commands/used', at: new Date().toISOString(), initiator_id: snowflake(), command: 'once' }] };
    const key = `batch-${snowflake()}`;
    const first = await batch(body, { 'Idempotency-Key': key });
    const again = await batch(body, { 'Idempotency-Key': key });
    expect(ok(first)).toEqual({ recorded: 1, skipped: 0 });
    expect(ok(again)).toEqual({ recorded: 1, skipped: 0 });
    expect(ok(await fetchStats(service, byPath('commands/used'), { guild_id: guild })).stats).toHaveLength(1);
  });

  it("counts and deletes a member's batched records for privacy, and a settings delete removes them", async () => {
    const guild = await statsGuild(service);
    const [member, other] = [snowflake(), snowflake()];
    const at = new Date().toISOString();
    const sent = (author: string) => ({ family: 'messages/sent', at, channel_id: snowflake(), author_id: author, message_id: snowflake() });
    ok(await batch({ guild_id: guild, records: [sent(member), sent(other), sent(member), { family: 'members/joined', at, joined_member_id: member }] }));
    ok(await recordStat(service, byPath('commands/used'), { guild_id: guild, initiator_id: member, command: 'one by one' }));
    const query = { guild_id: guild, privacy_member_id: member };
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query })).id).toBe(4);
    expect(ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: query })).message).toContain('4 statistic records');
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query })).id).toBe(0);
    const messages = ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild })).stats;
    expect(messages.map((s: Stat) => s.author_id)).toEqual([other]);
    expect(ok(await fetchStats(service, byPath('members/joined'), { guild_id: guild })).stats).toEqual([]);

    ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: guild } }));
    ok(await service.call('POST', `${SS}/enable`, { body: { guild_id: guild } }));
    expect(ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild })).stats).toEqual([]);
    expect(ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query: { guild_id: guild, privacy_member_id: other } })).id).toBe(0);
  });
});

describe('a batch under an Idempotency-Key, kept in the items it writes', () => {
  const messages = (n: number, author = () => snowflake()) =>
    Array.from({ length: n }, () => ({
      family: 'messages/sent',
      at: new Date().toISOString(),
      channel_id: snowflake(),
      author_id: author(),
      message_id: snowflake(),
    }));
  /** The message IDs a fetch of the guild's sent messages shows, in order. */
  const storedIds = async (guild: string) =>
    (ok(await fetchStats(service, byPath('messages/sent'), { guild_id: guild })).stats as Stat[]).map((s) => String(s.message_id)).sort();
  const idsOf = (records: { message_id: string }[]) => records.map((r) => r.message_id).sort();

  /** Runs `during` with a hook on every table command of this process (local mode's handlers share its client). */
  async function onTable<T>(hook: (command: string, input: Record<string, any>) => void, during: () => Promise<T>): Promise<T> {
    const name = `batchTest${snowflake()}`;
    db().middlewareStack.add(
      (next, context) => async (args) => {
        hook(String(context.commandName), args.input as Record<string, any>);
        return next(args);
      },
      { step: 'initialize', name },
    );
    try {
      return await during();
    } finally {
      db().middlewareStack.remove(name);
    }
  }
  const isKeyWrite = (command: string, input: Record<string, any>) => /^Put(Item)?Command$/.test(command) && String(input.Item?.pk).startsWith('IDEM#');

  it('answers a repeat as the first call with Idempotent-Replayed: true, and a fetch shows each record once', async () => {
    const guild = await statsGuild(service);
    const records = messages(3);
    const key = `batch-${snowflake()}`;
    const first = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    const again = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect(ok(first)).toEqual({ recorded: 3, skipped: 0 });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
    expect(await storedIds(guild)).toEqual(idsOf(records));
  });

  it('writes a batch of one family in two table writes, its pack then its answer under the key, after an eventually consistent settings read', async () => {
    const guild = await statsGuild(service);
    // A first batch takes this process's block of ids and notes the hour for filing (filing.ts); the one measured is the next,
    // after a settings write has made this process forget the settings it read.
    ok(await batch({ guild_id: guild, records: messages(1) }));
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, stats_messages_enabled: true } }));
    const writes: string[] = [];
    const settingsReads: unknown[] = [];
    await onTable(
      (command, input) => {
        const item = input.Item ?? input.RequestItems?.[Object.keys(input.RequestItems)[0]!]?.[0]?.PutRequest?.Item;
        if (/Put|BatchWrite|Update|Transact/.test(command)) writes.push(String(item?.pk ?? input.Key?.pk ?? command).split('#')[0]!);
        if (/^Get(Item)?Command$/.test(command) && String(input.Key?.sk ?? '').includes('serverstats')) settingsReads.push(input.ConsistentRead);
      },
      async () => ok(await batch({ guild_id: guild, records: messages(6) }, { 'Idempotency-Key': `batch-${snowflake()}` })),
    );
    expect(writes).toEqual(['STAT', 'IDEM']);
    expect(settingsReads).toEqual([false]);
  });

  it('answers another body under the same key with 422 naming Idempotency-Key, and stores nothing of it', async () => {
    const guild = await statsGuild(service);
    const [records, other] = [messages(2), messages(2)];
    const key = `batch-${snowflake()}`;
    ok(await batch({ guild_id: guild, records }, { 'Idempotency-Key': key }));
    const refused = await batch({ guild_id: guild, records: other }, { 'Idempotency-Key': key });
    expect([refused.status, errorOf(refused).name]).toEqual([422, 'Unprocessable Entity']);
    expect(errorOf(refused).message).toContain("Header 'Idempotency-Key'");
    expect(await storedIds(guild)).toEqual(idsOf(records));
  });

  it('stores two calls at once with one key once, and answers both alike', async () => {
    const guild = await statsGuild(service);
    const records = messages(4);
    const key = `batch-${snowflake()}`;
    const answers = await Promise.all([1, 2, 3].map(() => batch({ guild_id: guild, records }, { 'Idempotency-Key': key })));
    expect(answers.map((a) => [a.status, a.text])).toEqual(answers.map(() => [200, answers[0]!.text]));
    expect(ok(answers[0]!)).toEqual({ recorded: 4, skipped: 0 });
    expect(await storedIds(guild)).toEqual(idsOf(records));
  });

  it('finishes on a repeat a call that failed after its packs and before its answer was kept: one set of records', async () => {
    const guild = await statsGuild(service);
    const records = [...messages(3), { family: 'commands/used', at: new Date().toISOString(), initiator_id: snowflake(), command: 'once' }];
    const key = `batch-${snowflake()}`;
    let failed = 0;
    const first = await onTable(
      (command, input) => {
        // The table failing the answer's write, once: as a function stopped between the packs and the answer.
        if (isKeyWrite(command, input) && input.Item.state === 'kept' && failed++ === 0)
          throw Object.assign(new Error('the table failed'), { $fault: 'server' });
      },
      () => batch({ guild_id: guild, records }, { 'Idempotency-Key': key }),
    );
    expect(first.status).toBeGreaterThanOrEqual(500);
    expect(await storedIds(guild)).toEqual(idsOf(records.slice(0, 3) as { message_id: string }[]));
    const again = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(ok(again)).toEqual({ recorded: 4, skipped: 0 });
    expect(await storedIds(guild)).toEqual(idsOf(records.slice(0, 3) as { message_id: string }[]));
    expect(ok(await fetchStats(service, byPath('commands/used'), { guild_id: guild })).stats).toHaveLength(1);
  });

  it("changes nothing on a repeat after a privacy delete: the member's records stay removed", async () => {
    const guild = await statsGuild(service);
    const member = snowflake();
    const records = messages(2, () => member);
    const key = `batch-${snowflake()}`;
    ok(await batch({ guild_id: guild, records }, { 'Idempotency-Key': key }));
    ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: { guild_id: guild, privacy_member_id: member } }));
    const again = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await storedIds(guild)).toEqual([]);
  });

  it('answers a repeat as the first call after its family was switched on, or the module off, and stores nothing', async () => {
    const guild = await statsGuild(service);
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, stats_messages_enabled: false } }));
    const records = messages(2);
    const key = `batch-${snowflake()}`;
    const first = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect(ok(first)).toEqual({ recorded: 0, skipped: 2 });
    ok(await service.call('PUT', `${SS}/settings`, { body: { guild_id: guild, stats_messages_enabled: true } }));
    const again = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
    expect(await storedIds(guild)).toEqual([]);
    ok(await service.call('POST', `${SS}/disable`, { body: { guild_id: guild } }));
    const off = await batch({ guild_id: guild, records }, { 'Idempotency-Key': key });
    expect([off.status, off.text, off.headers.get('idempotent-replayed')]).toEqual([200, first.text, 'true']);
  });

  it('stores each call without a key', async () => {
    const guild = await statsGuild(service);
    const records = messages(2);
    ok(await batch({ guild_id: guild, records }));
    ok(await batch({ guild_id: guild, records }));
    expect(await storedIds(guild)).toEqual([...idsOf(records), ...idsOf(records)].sort());
  });
});
