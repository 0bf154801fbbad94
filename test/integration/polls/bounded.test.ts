/**
 * Poll answers stay under 1 MiB however many polls a guild keeps and
 * however large each is (behaviour §15): the settings delete shows the
 * newest 1000 that fit and `polls_total`; a page of the list ends early
 * when its polls would pass the answer's bytes, and its `next_cursor` leads
 * on to every poll exactly once, newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PollEntity, PollListEntity, VoterEntity } from '#functions/polls/keys.js';
import { type TestService, ok, snowflake, startTestService } from '#test/helpers/local.js';
import { putAll } from '#test/helpers/seed.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const MiB = 1024 * 1024;
/** One character that JSON writes as six bytes (`\u0001`): text of it is the widest a stored text of that length can answer. */
const WIDE = '\u0001';
const start = Date.now() - 30 * 86_400_000;

/**
 * The i-th poll of a guild (a larger i is newer) with its list pointer, as
 * the service stores them: `wide`, a service poll at the limits of its text
 * (question 256, description 1000, 25 answers of text 100, label 80 and
 * description 100 characters); else small.
 */
function pollItems(guild: string, i: number, wide: boolean) {
  const createdAt = new Date(start + i * 60_000).toISOString();
  const pollId = `poll-${String(i).padStart(5, '0')}`;
  const text = (n: number, small: string | null) => (wide ? WIDE.repeat(n) : small);
  const poll = {
    id: i,
    guild_id: guild,
    poll_id: pollId,
    channel_id: '100',
    message_id: null,
    poll_type: 2,
    poll_answer_type: 3,
    question: text(256, `Question ${i}`),
    description: text(1000, null),
    is_multi_select: false,
    is_anonymous: false,
    max_votes_per_answer: 1,
    poll_owner_id: '300',
    sent_by_service: true,
    status: 'closed',
    end_time: Date.parse(createdAt) + 3_600_000,
    delete_at: null,
    edited_with_results: false,
    created_at: createdAt,
    answers: Array.from({ length: wide ? 25 : 2 }, (_, a) => ({
      answer_id: a + 1,
      answer_text: text(100, `Answer ${a + 1}`),
      label: text(80, null),
      description: text(100, null),
      emoji_name: null,
      emoji_id: null,
    })),
    version: 1,
    counted: true,
  };
  return [PollEntity.item({ guildId: guild, pollId }, poll), PollListEntity.item({ guildId: guild, createdAt, id: i, pollId }, { poll_id: pollId })];
}

/** A guild with the polls module on and `count` polls, the newest `wide` of them at their limits. */
async function seedGuild(count: number, wide: number): Promise<string> {
  const guild = snowflake();
  ok(await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } }));
  await putAll(Array.from({ length: count }, (_, n) => pollItems(guild, n + 1, n + 1 > count - wide)).flat());
  return guild;
}

/** The seeded number of each poll listed. */
const ids = (records: { id: number }[]) => records.map((p) => p.id);
/** The newest `n` of `count` seeded, newest first. */
const newest = (count: number, n: number) => Array.from({ length: n }, (_, i) => count - i);

describe('polls that grow without bound', { timeout: 300_000 }, () => {
  it('shows the newest 1000 of 1010 polls and the count in the settings delete, and removes them all', async () => {
    const guild = await seedGuild(1010, 0);
    const deleted = await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: guild } });
    const data = ok(deleted);
    expect(Buffer.byteLength(deleted.text)).toBeLessThan(MiB);
    expect(data.polls_total).toBe(1010);
    expect(ids(data.polls)).toEqual(newest(1010, 1000));

    ok(await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } }));
    const after = ok(await service.call('GET', '/modules/polls/entries', { query: { guild_id: guild } }));
    expect(after.total).toBe(0);
    expect(after.polls).toEqual([]);
  });

  it('ends a page of 100 polls at their limits early, its cursors lead to every poll once, and the settings delete shows those that fit', async () => {
    const guild = await seedGuild(150, 60);
    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await service.call('GET', '/modules/polls/entries', {
        query: { guild_id: guild, page_size: '100', ...(cursor === null ? {} : { cursor }) },
      });
      const page = ok(res);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MiB);
      expect(page.total).toBe(150);
      expect(page.page).toBe(++pages);
      sizes.push(page.polls.length);
      seen.push(...ids(page.polls));
      cursor = page.next_cursor;
    } while (cursor !== null && pages < 20);
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]).toBeLessThan(60);
    expect(seen).toEqual(newest(150, 150));

    // Page numbers keep their places: page 2 of 100 is polls 101 to 150 from the newest.
    const second = ok(await service.call('GET', '/modules/polls/entries', { query: { guild_id: guild, page: '2', page_size: '100' } }));
    expect(ids(second.polls)).toEqual(newest(50, 50));
    expect(second.next_cursor).toBeNull();

    const deleted = await service.call('DELETE', '/modules/polls/settings/delete', { body: { guild_id: guild } });
    const removed = ok(deleted);
    expect(Buffer.byteLength(deleted.text)).toBeLessThan(MiB);
    expect(removed.polls_total).toBe(150);
    expect(removed.polls.length).toBeGreaterThan(0);
    expect(removed.polls.length).toBeLessThan(60);
    expect(ids(removed.polls)).toEqual(newest(150, removed.polls.length));
  });

  it('ends a page of voters holding 2500 votes each early, and its cursors lead to every voter once', async () => {
    const guild = await seedGuild(0, 0);
    const [pollItem, pointer] = pollItems(guild, 1, false);
    const pollId = 'poll-00001';
    const answers = Array.from({ length: 25 }, (_, a) => ({
      answer_id: a + 1,
      answer_text: `Answer ${a + 1}`,
      label: null,
      description: null,
      emoji_name: null,
      emoji_id: null,
    }));
    const votes = Object.fromEntries(answers.map((a) => [String(a.answer_id), 100]));
    const members = Array.from({ length: 300 }, (_, i) => String(1_300_000_000_000_000_000n + BigInt(i)));
    const poll = { ...pollItem, answers, is_multi_select: true, max_votes_per_answer: 100, voter_total: 300, vote_total: 300 * 2500 };
    await putAll([
      poll,
      pointer!,
      ...members.map((member) => VoterEntity.item({ guildId: guild, pollId: pollId, memberId: member }, { member_id: member, votes, version: 1 })),
    ]);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await service.call('GET', `/modules/polls/entry/${pollId}/voters`, {
        query: { guild_id: guild, page_size: '300', ...(cursor === null ? {} : { cursor }) },
      });
      const page = ok(res);
      expect(Buffer.byteLength(res.text)).toBeLessThan(MiB);
      expect(page.total).toBe(300);
      pages++;
      sizes.push(page.voters.length);
      seen.push(...page.voters.map((v: { user_id: string; answer_ids: number[] }) => v.user_id));
      expect(page.voters.every((v: { answer_ids: number[] }) => v.answer_ids.length === 2500)).toBe(true);
      cursor = page.next_cursor;
    } while (cursor !== null && pages < 20);
    expect(sizes[0]).toBeGreaterThan(0);
    expect(sizes[0]).toBeLessThan(300);
    expect(seen).toEqual(members);
  });
});
