/** Privacy, the limit of 1000 tags, claims left behind by a crash, and interaction answers. */
import { describe, expect, it } from 'vitest';
import { putPointer } from '#functions/tags/store.js';
import { STALE_CLAIM_MS } from '#functions/tags/names.js';
import { snowflake } from '#test/helpers/local.js';
import { addTag, createTag, failed, ok, startWorld, tagNamed, tagsGuild } from './helpers.js';

const world = startWorld();

describe('tags privacy and limits', () => {
  it("counts a member's tags and deletes them, freeing their names, in any module state", async () => {
    const guild = await tagsGuild(world);
    const member = snowflake();
    const other = snowflake();
    await addTag(world, guild, { names: ['m1', 'm1b'], owner_id: member });
    await addTag(world, guild, { names: ['m2'], owner_id: member, visibility: 2 });
    const kept = await addTag(world, guild, { names: ['o1'], owner_id: other });
    const count = (id: string) => world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: id } });
    expect(ok(await count(member))).toEqual({ username: 0, display_name: 0, global_name: 0, nickname: 0, id: 2 });
    ok(await world.call('POST', '/disable', { body: { guild_id: guild } }));
    expect(ok(await count(member)).id).toBe(2);
    const deleted = ok(await world.call('DELETE', '/privacy/delete-user-entries', { body: { guild_id: guild, privacy_member_id: member } }));
    expect(deleted.message).toContain('2 tags');
    expect(ok(await count(member)).id).toBe(0);
    expect(ok(await count(other)).id).toBe(1);
    ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild } })).entries).toEqual([kept]);
    expect(await tagNamed(world, guild, 'm1b')).toBeNull();
    await addTag(world, guild, { names: ['m1', 'm1b', 'm2'] });
    failed(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild } }), 400, 'BadRequestError');
  });

  it('keeps at most 1000 tags a guild; a deleted one makes room', async () => {
    const guild = await tagsGuild(world);
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < 1000) {
          const i = next++;
          ok(await createTag(world, guild, { names: [`tag${i}`], content: 'x' }));
        }
      }),
    );
    expect(failed(await createTag(world, guild, { names: ['one-too-many'] }), 422, 'Unprocessable Entity')).toContain('1000');
    expect(await tagNamed(world, guild, 'one-too-many')).toBeNull();
    const last = ok(await world.call('GET', '/entries', { query: { guild_id: guild, page_size: 1 } }));
    expect(last.total).toBe(1000);
    ok(await world.call('DELETE', `/entries/${last.entries[0].entry.tag_id}`, { body: { guild_id: guild } }));
    await addTag(world, guild, { names: ['one-too-many'] });
  }, 60_000);

  it('takes over a name whose claim a crash left behind, but not one under way', async () => {
    const guild = await tagsGuild(world);
    await putPointer(guild, 'orphan', { tag_id: 'gone', claim: 'old', claimed_at: Date.now() - STALE_CLAIM_MS - 1000 });
    await putPointer(guild, 'underway', { tag_id: 'coming', claim: 'new', claimed_at: Date.now() });
    expect(await tagNamed(world, guild, 'orphan')).toBeNull();
    failed(await createTag(world, guild, { names: ['underway'] }), 422, 'Unprocessable Entity');
    const tag = await addTag(world, guild, { names: ['Orphan'] });
    expect(await tagNamed(world, guild, 'orphan')).toEqual(tag);
  });

  it('tells the member of an interaction what happened to the tag', async () => {
    const guild = await tagsGuild(world);
    const app = snowflake();
    const token = `t-${snowflake()}`;
    const body = { guild_id: guild, owner_id: snowflake(), content: 'x', visibility: 1, names: ['told'], application_id: app, token };
    const tag = ok(await world.call('POST', '/entries', { body }));
    failed(await world.call('POST', '/entries', { body }), 422, 'Unprocessable Entity');
    ok(await world.call('DELETE', `/entries/${tag.entry.tag_id}`, { body: { guild_id: guild, application_id: app, token } }));
    const answers = await world.sandbox.webhook(app, token);
    expect(answers.map((m) => m.content)).toEqual([expect.stringContaining('created'), expect.stringContaining("'told'"), expect.stringContaining('deleted')]);
    for (const m of answers) expect(m.flags! & 64).toBe(64);
  });
});
