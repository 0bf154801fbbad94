/**
 * Batched records filed by member and by channel (issue 45): a filtered
 * fetch over filed hours, hours not yet filed, and both, answers what the
 * same records stored one by one answer (order, pages, cursors); the job
 * files an hour once however often it runs; privacy and a settings delete
 * reach the filed copies; they expire with their packs.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAMILIES, type Family } from '#functions/serverstats/families.js';
import { FILE_AFTER_MS, FILE_JOB, fileHour, hourOf, hourSeedItems, memberFiledStats } from '#functions/serverstats/filing.js';
import { type PackFields, type PackedStat, packItem, putPacks } from '#functions/serverstats/packs.js';
import { getPurge } from '#functions/serverstats/purge.js';
import { RECORD_TTL_SECONDS, statItem, storedBefore } from '#functions/serverstats/store.js';
import { deleteKeys } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { getDue } from '#shared/scheduler/store.js';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';
import { SS, fetchStats, ok, statsGuild } from './helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const HOUR = 3_600_000;
const byPath = (path: string) => FAMILIES.find((f) => f.path === path)!;
const sent = byPath('messages/sent');
const commands = byPath('commands/used');
const FIELDS: Record<string, PackFields> = {
  'messages/sent': { time: 'timestamp', member: 'author_id', channel: 'channel_id' },
  'commands/used': { time: 'timestamp', member: 'user_id', channel: null },
};

type Stat = Record<string, unknown>;

/** Records of two families over five hours (two minutes apart, some at the same millisecond, ids out of time order), naming three members and two channels. */
function records(members: string[], channels: string[]) {
  const start = Date.parse(hourOf(Date.now() - 6 * HOUR));
  return Array.from({ length: 150 }, (_, i) => {
    const family = i % 3 === 2 ? commands : sent;
    const time = new Date(start + (i % 10 === 9 ? i - 1 : i) * 120_000 + 17).toISOString();
    const id = 1000 + ((i * 37) % 150);
    const member = members[Math.floor(i / 3) % members.length]!;
    const channel = family === sent ? channels[i % channels.length]! : null;
    const fields = family === sent ? { channel_id: channel, author_id: member, message_id: String(5000 + i) } : { user_id: member, command: `cmd ${i}` };
    return { family, time, id, member, channel, fields };
  });
}
type Made = ReturnType<typeof records>[number];

const packed = (guild: string, r: Made): PackedStat => ({
  time: r.time,
  id: r.id,
  memberId: r.member,
  channelId: r.channel,
  record: { id: r.id, guild_id: guild, ...r.fields, timestamp: r.time },
});

/** The same records in two guilds: one by one in `single`, in packs of five (each within ten minutes, some across an hour's end) in `batched`, its hours due. */
async function seed(made: Made[]): Promise<{ single: string; batched: string; hours: string[] }> {
  const [single, batched] = [await statsGuild(service), await statsGuild(service)];
  await putAll(
    made.map((r) =>
      statItem({ guildId: single, family: r.family.path, id: r.id, time: r.time, memberId: r.member, channelId: r.channel, record: packed(single, r).record }),
    ),
  );
  const packs = [];
  for (const family of [sent, commands]) {
    const mine = made.filter((r) => r.family === family);
    for (let i = 0; i < mine.length; i += 5)
      packs.push(
        packItem(
          batched,
          family.path,
          mine.slice(i, i + 5).map((r) => packed(batched, r)),
          FIELDS[family.path]!,
        ),
      );
  }
  await putPacks(packs);
  const hours = [...new Set(made.map((r) => hourOf(r.time)))].sort();
  await putAll(hours.flatMap((hour) => hourSeedItems(batched, hour, 'due')));
  return { single, batched, hours };
}

/** Every page of a fetch, following next_cursor, the records without their guild. */
async function walk(family: Family, query: Record<string, string | number>): Promise<Stat[][]> {
  const pages: Stat[][] = [];
  let cursor: string | null = null;
  do {
    const page = ok(await fetchStats(service, family, { days: 1, ...query, ...(cursor ? { cursor } : {}) }));
    pages.push(page.stats.map(({ guild_id: _guild, ...rest }: Stat) => rest));
    cursor = page.next_cursor;
  } while (cursor && pages.length < 200);
  return pages;
}

const QUERIES: [Family, (m: string[], c: string[]) => Record<string, string | number>][] = [
  [sent, (m) => ({ user_id: m[0]! })],
  [sent, (m) => ({ user_id: m[1]!, limit: 3 })],
  [sent, (m) => ({ user_id: m[2]!, limit: 5 })],
  [sent, (_m, c) => ({ channel_id: c[0]! })],
  [sent, (_m, c) => ({ channel_id: c[1]!, limit: 4 })],
  [sent, (m, c) => ({ user_id: m[0]!, channel_id: c[1]!, limit: 2 })],
  [sent, () => ({ limit: 20 })],
  [commands, (m) => ({ user_id: m[1]! })],
  [commands, (m) => ({ user_id: m[0]!, limit: 2 })],
];

async function expectAlike(single: string, batched: string, members: string[], channels: string[], what: string, gone?: string) {
  for (const [family, query] of QUERIES) {
    const q = query(members, channels);
    const one = await walk(family, { guild_id: single, ...q });
    const many = await walk(family, { guild_id: batched, ...q });
    expect({ what, family: family.path, q, pages: many }).toEqual({ what, family: family.path, q, pages: one });
    if (q.user_id !== gone) expect(one.flat().length).toBeGreaterThan(0);
  }
}

/** The items of the guild's statistics partition whose sort key begins so. */
async function itemsUnder(guild: string, prefix: string): Promise<Stat[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': `STAT#${guild}`, ':p': prefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as Stat[];
}

const people = () => ({ members: [snowflake(), snowflake(), snowflake()], channels: [snowflake(), snowflake()] });

describe('a filtered fetch of batched records', { timeout: 120_000 }, () => {
  it('answers as single records do over hours not filed, some filed, all filed, and reads filed hours from the filed items', async () => {
    const { members, channels } = people();
    const { single, batched, hours } = await seed(records(members, channels));
    expect(hours).toHaveLength(5);
    await expectAlike(single, batched, members, channels, 'none filed');

    expect(await fileHour(batched, hours[1]!)).toBe(true);
    expect(await fileHour(batched, hours[3]!)).toBe(true);
    await expectAlike(single, batched, members, channels, 'hours 1 and 3 filed');

    for (const hour of hours) await fileHour(batched, hour);
    await expectAlike(single, batched, members, channels, 'all filed');

    // With the packs gone, a filtered fetch of filed hours still answers: it reads the filed items, not the packs.
    await deleteKeys((await itemsUnder(batched, 'PACK#')).map(({ pk, sk }) => ({ pk: String(pk), sk: String(sk) })));
    const mine = await walk(sent, { guild_id: batched, user_id: members[0]! });
    expect(mine).toEqual(await walk(sent, { guild_id: single, user_id: members[0]! }));
    expect(await walk(sent, { guild_id: batched })).toEqual([[]]);
  });

  it("pages through a busy channel's hour filed in several parts as through its single records", async () => {
    const [member, other, channel] = [snowflake(), snowflake(), snowflake()];
    const start = Date.parse(hourOf(Date.now() - 3 * HOUR)) + 60_000;
    // 2,500 messages in 42 minutes of one hour, two at each of some milliseconds.
    const made: Made[] = Array.from({ length: 2500 }, (_, i) => ({
      family: sent,
      time: new Date(start + (i - (i % 4 === 3 ? 1 : 0)) * 1000).toISOString(),
      id: 1 + ((i * 7919) % 2500),
      member: i % 5 === 0 ? member : other,
      channel,
      fields: { channel_id: channel, author_id: i % 5 === 0 ? member : other, message_id: String(9000 + i) },
    }));
    const { single, batched, hours } = await seed(made);
    expect(hours).toHaveLength(1);
    await fileHour(batched, hours[0]!);
    expect(await itemsUnder(batched, `FILED#C#${channel}#messages/sent#${hours[0]}#`)).toHaveLength(3);
    // The members' records filed in 16 buckets (2,500 records, about 128 a bucket): the two members' buckets, the busier in two parts.
    expect(await itemsUnder(batched, `FILING#${hours[0]}`)).toEqual([expect.objectContaining({ buckets: { 'messages/sent': 16 } })]);
    expect(await itemsUnder(batched, 'FILED#M#16/')).toHaveLength(3);
    const queries: Record<string, string | number>[] = [
      { channel_id: channel, limit: 1000 },
      { channel_id: channel, limit: 300 },
      { user_id: member, limit: 200 },
      { user_id: other, channel_id: channel, limit: 999 },
    ];
    for (const q of queries) {
      const many = await walk(sent, { guild_id: batched, ...q });
      expect({ q, pages: many }).toEqual({ q, pages: await walk(sent, { guild_id: single, ...q }) });
    }
  });

  it('files an hour once: a second run does nothing, and a run after one cut short writes the same items', async () => {
    const { members, channels } = people();
    const { single, batched, hours } = await seed(records(members, channels));
    expect(await fileHour(batched, hours[2]!)).toBe(true);
    const first = await itemsUnder(batched, 'FILED#');
    expect(first.length).toBeGreaterThan(0);
    expect(await fileHour(batched, hours[2]!)).toBe(false);
    // Cut short before marking the hour filed: the next run writes the same items again, no more.
    await putAll(hourSeedItems(batched, hours[2]!, 'due'));
    expect(await fileHour(batched, hours[2]!)).toBe(true);
    expect(await itemsUnder(batched, 'FILED#')).toEqual(first);
    await expectAlike(single, batched, members, channels, 'filed twice');
    // An hour no batch noted (or a settings delete removed) is not filed.
    expect(await fileHour(batched, hourOf(Date.now() - 30 * HOUR))).toBe(false);
  });

  it("counts and removes a member's filed records for privacy, including from the channels' filed items", async () => {
    const { members, channels } = people();
    const made = records(members, channels);
    const { single, batched, hours } = await seed(made);
    const theirs = made.filter((r) => r.member === members[0]).length;
    for (const hour of hours.slice(0, 3)) await fileHour(batched, hour);
    const query = (guild: string) => ({ guild_id: guild, privacy_member_id: members[0]! });
    const count = async (guild: string) => ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query: query(guild) })).id;
    expect(await count(batched)).toBe(await count(single));
    expect(await count(batched)).toBe(theirs);
    const removed = async (guild: string) => ok(await service.call('DELETE', `${SS}/privacy/delete-user-entries`, { body: query(guild) })).message;
    expect(await removed(batched)).toContain(`${theirs} statistic records`);
    await removed(single);
    expect(await count(batched)).toBe(0);
    expect(await memberFiledStats(batched, members[0]!)).toEqual([]);
    expect((await memberFiledStats(batched, members[1]!)).length).toBeGreaterThan(0);
    await expectAlike(single, batched, members, channels, 'after a privacy delete', members[0]);
    const inChannels = (await walk(sent, { guild_id: batched, channel_id: channels[0]! })).flat();
    expect(inChannels.length).toBeGreaterThan(0);
    expect(inChannels.filter((s) => s.author_id === members[0])).toEqual([]);
    // Hours filed after the delete hold nothing of the member either.
    for (const hour of hours) await fileHour(batched, hour);
    expect(await memberFiledStats(batched, members[0]!)).toEqual([]);
    await expectAlike(single, batched, members, channels, 'filed after a privacy delete', members[0]);
  });

  it('counts filed copies whose packs no longer hold them (a privacy delete cut short), once each', async () => {
    const { members, channels } = people();
    const made = records(members, channels);
    const { batched, hours } = await seed(made);
    const theirs = made.filter((r) => r.member === members[1]).length;
    for (const hour of hours) await fileHour(batched, hour);
    const count = async () =>
      ok(await service.call('GET', `${SS}/privacy/get-user-entries`, { query: { guild_id: batched, privacy_member_id: members[1]! } })).id;
    expect(await count()).toBe(theirs);
    await deleteKeys((await itemsUnder(batched, 'PACK#')).map(({ pk, sk }) => ({ pk: String(pk), sk: String(sk) })));
    expect(await count()).toBe(theirs);
  });

  it('expires filed items with their newest record, hours with their last pack, and a settings delete removes both', async () => {
    const { members, channels } = people();
    const made = records(members, channels);
    const { batched, hours } = await seed(made);
    await fileHour(batched, hours[0]!);
    const [hour] = await itemsUnder(batched, `FILING#${hours[0]}`);
    expect(hour).toMatchObject({ state: 'filed', expires_at: (Date.parse(hours[0]!) + 75 * 60_000) / 1000 + RECORD_TTL_SECONDS });
    const [filed] = await itemsUnder(batched, `FILED#C#${channels[0]}#messages/sent#${hours[0]}`);
    const newest = made
      .filter((r) => r.channel === channels[0] && hourOf(r.time) === hours[0])
      .map((r) => r.time)
      .sort()
      .at(-1)!;
    expect(filed!.expires_at).toBe(Math.floor(Date.parse(newest) / 1000) + RECORD_TTL_SECONDS);
    // A settings delete's removal takes them once every record they hold is before its time.
    expect(storedBefore(filed!, newest)).toBe(false);
    expect(storedBefore(filed!, new Date(Date.parse(newest) + 1000).toISOString())).toBe(true);
    expect(storedBefore(hour!, new Date(Date.parse(hours[0]!) + 75 * 60_000).toISOString())).toBe(false);
    expect(storedBefore(hour!, new Date(Date.parse(hours[0]!) + 76 * 60_000).toISOString())).toBe(true);

    for (const h of hours) await fileHour(batched, h);
    ok(await service.call('DELETE', `${SS}/settings`, { body: { guild_id: batched } }));
    for (const until = Date.now() + 60_000; await getPurge(batched); ) {
      if (Date.now() > until) throw new Error('the settings delete did not finish');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(await itemsUnder(batched, 'FILED#')).toEqual([]);
    expect(await itemsUnder(batched, 'FILING#')).toEqual([]);
  });

  it("a batch notes its records' hour as due and schedules the hour's filing after the hour closes", async () => {
    const guild = await statsGuild(service);
    const at = new Date().toISOString();
    const message = () => ({ family: 'messages/sent', at, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() });
    ok(await service.call('POST', `${SS}/stats/batch`, { looseBody: { guild_id: guild, records: [message(), message()] } }));
    ok(await service.call('POST', `${SS}/stats/batch`, { looseBody: { guild_id: guild, records: [message()] } }));
    const hour = hourOf(at);
    expect(await itemsUnder(guild, 'FILING#')).toEqual([expect.objectContaining({ sk: `FILING#${hour}`, state: 'due' })]);
    const due = await getDue(FILE_JOB, `${guild}#${hour}`);
    expect(due).toMatchObject({ due_at: Date.parse(hour) + FILE_AFTER_MS, gen: 1 });
  });
});
