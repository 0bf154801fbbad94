/** Tags: create, get, list (pagination, lookups by name), edit, delete, settings delete, and their rules. */
import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { addTag, createTag, failed, guildApiKey, namesOf, ok, startWorld, tagNamed, tagsGuild } from './helpers.js';

const world = startWorld();

describe('tags', () => {
  it('creates, gets, edits and deletes a tag with its names', async () => {
    const guild = await tagsGuild(world);
    const owner = snowflake();
    const created = await addTag(world, guild, { names: ['rules', 'Regeln'], content: 'Read the rules, <user_mention>!', owner_id: owner, visibility: 1 });
    expect(created.entry).toEqual({
      id: expect.any(Number),
      guild_id: guild,
      tag_id: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      content: 'Read the rules, <user_mention>!',
      owner_id: owner,
      created_at: expect.any(String),
      last_update: created.entry.created_at,
      visibility: 1,
    });
    expect(created.entry_names).toEqual([
      { id: expect.any(Number), guild_id: guild, tag_id: created.entry.tag_id, name: 'rules', created_at: created.entry.created_at },
      { id: expect.any(Number), guild_id: guild, tag_id: created.entry.tag_id, name: 'Regeln', created_at: created.entry.created_at },
    ]);
    const id = created.entry.tag_id;
    expect(ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }))).toEqual(created);

    const edited = ok(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'New text', visibility: null } }));
    expect(edited.entry).toMatchObject({ content: 'New text', visibility: 1, owner_id: owner });
    expect(edited.entry_names).toEqual(created.entry_names);
    expect(edited.entry.last_update >= created.entry.last_update).toBe(true);

    const private_ = ok(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, visibility: 2 } }));
    expect(private_.entry).toMatchObject({ content: 'New text', visibility: 2 });
    expect(ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }))).toEqual(private_);

    expect(ok(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild } }))).toEqual(private_);
    failed(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('GET', '/entries/not-a-tag', { query: { guild_id: guild } }), 404, 'NotFoundError');
    // Its names are free again.
    expect(await tagNamed(world, guild, 'rules')).toBeNull();
    await addTag(world, guild, { names: ['RULES'] });
  });

  it('keeps names unique in a guild ignoring case, and finds a tag by any spelling of a name', async () => {
    const guild = await tagsGuild(world);
    const other = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['Hello', 'hi'] });
    expect(failed(await createTag(world, guild, { names: ['new', 'HELLO'] }), 422, 'Unprocessable Entity')).toContain("'HELLO'");
    // Nothing of the refused tag stays: its other name is free.
    await addTag(world, guild, { names: ['new'] });
    // Another guild has its own names.
    await addTag(world, other, { names: ['hello'] });
    for (const spelling of ['Hello', 'hello', 'HELLO', 'hI']) expect(await tagNamed(world, guild, spelling)).toEqual(tag);
    expect(await tagNamed(world, guild, 'nope')).toBeNull();
    const page = ok(await world.call('GET', '/entries', { query: { guild_id: guild, name: 'nope' } }));
    expect(page).toEqual({ entries: [], page: 1, page_size: 10, total: 0, next_cursor: null });
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild, name: 'HI' } }))).toEqual({
      entries: [tag],
      page: 1,
      page_size: 10,
      total: 1,
      next_cursor: null,
    });
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild, name: 'HI', page: 2, page_size: 5 } }))).toEqual({
      entries: [],
      page: 2,
      page_size: 5,
      total: 1,
      next_cursor: null,
    });
  });

  it('gives one of two creates at once with the same name the name, and the other a 422', async () => {
    const guild = await tagsGuild(world);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createTag(world, guild, { names: [i % 2 ? 'race' : 'RACE', `own${i}`], content: `from ${i}` })),
    );
    const wins = results.filter((r) => r.status === 200);
    expect(wins).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) failed(r, 422, 'Unprocessable Entity');
    const winner = wins[0]!.body.data;
    expect(await tagNamed(world, guild, 'race')).toEqual(winner);
    const listed = ok(await world.call('GET', '/entries', { query: { guild_id: guild } }));
    expect(listed.entries).toEqual([winner]);
    // The losers' other names were taken back.
    for (let i = 0; i < 6; i++) if (!namesOf(winner).includes(`own${i}`)) await addTag(world, guild, { names: [`own${i}`] });
  });

  it('lists newest first, a page at a time', async () => {
    const guild = await tagsGuild(world);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await addTag(world, guild, { names: [`t${i}`] }));
    const newest = [...made].reverse();
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild } }))).toEqual({
      entries: newest,
      page: 1,
      page_size: 10,
      total: 5,
      next_cursor: null,
    });
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild, page: 2, page_size: 2 } }))).toEqual({
      entries: newest.slice(2, 4),
      page: 2,
      page_size: 2,
      total: 5,
      next_cursor: expect.any(String),
    });
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild, page: 4, page_size: 2 } }))).toEqual({
      entries: [],
      page: 4,
      page_size: 2,
      total: 5,
      next_cursor: null,
    });
    failed(await world.call('GET', '/entries', { query: { guild_id: guild, page: 0 } }), 422, 'Unprocessable Entity');
    failed(await world.call('GET', '/entries', { query: { guild_id: guild, page_size: 101 } }), 422, 'Unprocessable Entity');
    failed(await world.call('GET', '/entries', { query: { guild_id: guild, page_size: 'ten' } }), 400, 'BadRequestError');
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const guild = await tagsGuild(world);
    const owner = snowflake();
    const body = { guild_id: guild, owner_id: owner, content: 'x', visibility: 1, names: ['ok'] };
    const post = (changes: Record<string, unknown>) => world.call('POST', '/entries', { body: { ...body, ...changes } });
    expect(failed(await post({ names: ['two words'] }), 422, 'Unprocessable Entity')).toContain('no spaces');
    expect(failed(await post({ names: Array.from({ length: 11 }, (_, i) => `n${i}`) }), 422, 'Unprocessable Entity')).toContain('1 to 10');
    expect(failed(await post({ names: [] }), 422, 'Unprocessable Entity')).toContain('1 to 10');
    expect(failed(await post({ names: ['x'.repeat(33)] }), 422, 'Unprocessable Entity')).toContain('1 to 32');
    expect(failed(await post({ names: [''] }), 422, 'Unprocessable Entity')).toContain('1 to 32');
    expect(failed(await post({ names: ['Same', 'same'] }), 422, 'Unprocessable Entity')).toContain('twice');
    expect(failed(await post({ content: 'x'.repeat(2001) }), 422, 'Unprocessable Entity')).toContain('2000');
    failed(await post({ content: '' }), 422, 'Unprocessable Entity');
    expect(failed(await post({ visibility: 3 }), 422, 'Unprocessable Entity')).toContain('visibility');
    expect(failed(await post({ application_id: snowflake() }), 422, 'Unprocessable Entity')).toContain('token');
    failed(await post({ names: 'ok' }), 400, 'BadRequestError');
    failed(await post({ names: [1] }), 400, 'BadRequestError');
    failed(await post({ visibility: '1' }), 400, 'BadRequestError');
    failed(await post({ owner_id: 'me' }), 400, 'BadRequestError');
    failed(await post({ content: undefined }), 400, 'BadRequestError');
    failed(await world.call('GET', '/entries', { query: { guild_id: guild, name: 'two words' } }), 422, 'Unprocessable Entity');
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild } })).total).toBe(0);

    // The same rules on an edit, which then changes nothing.
    const tag = await addTag(world, guild, { names: ['keep'], owner_id: owner });
    const put = (changes: Record<string, unknown>) => world.call('PUT', `/entries/${tag.entry.tag_id}`, { body: { guild_id: guild, ...changes } });
    failed(await put({ names: ['a b'] }), 422, 'Unprocessable Entity');
    failed(await put({ names: Array.from({ length: 11 }, (_, i) => `n${i}`) }), 422, 'Unprocessable Entity');
    failed(await put({ names: ['y'.repeat(33)] }), 422, 'Unprocessable Entity');
    failed(await put({ content: 'y'.repeat(2001) }), 422, 'Unprocessable Entity');
    failed(await put({ visibility: 0 }), 422, 'Unprocessable Entity');
    failed(await put({ owner_id: 'nobody' }), 400, 'BadRequestError');
    expect(ok(await world.call('GET', `/entries/${tag.entry.tag_id}`, { query: { guild_id: guild } }))).toEqual(tag);
  });

  it("answers 404 for another guild's tag, and 403 to another guild's key", async () => {
    const guild = await tagsGuild(world);
    const other = await tagsGuild(world);
    const tag = await addTag(world, other, { names: ['theirs'] });
    const id = tag.entry.tag_id;
    failed(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }), 404, 'NotFoundError');
    failed(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'mine' } }), 404, 'NotFoundError');
    failed(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild } }), 404, 'NotFoundError');
    failed(
      await world.call('POST', `/entries/${id}/send`, { body: { guild_id: guild, channel_id: await world.sandbox.channelIn(guild) } }),
      404,
      'NotFoundError',
    );
    expect(await tagNamed(world, guild, 'theirs')).toBeNull();

    const key = await guildApiKey(world, guild);
    failed(await world.call('GET', `/entries/${id}`, { query: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    failed(await world.call('GET', '/entries', { query: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    failed(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    failed(await world.call('DELETE', '/settings', { body: { guild_id: other }, token: key }), 403, 'ForbiddenError');
    // The guild's own key may do everything not internal.
    const mine = await addTag(world, guild, { names: ['mine'] });
    const ownKey = await guildApiKey(world, other);
    expect(ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: other }, token: ownKey }))).toEqual(tag);
    failed(await world.call('POST', `/entries/${id}/send`, { body: { guild_id: other, channel_id: snowflake() }, token: ownKey }), 403, 'ForbiddenError');
    failed(
      await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: other, privacy_member_id: snowflake() }, token: ownKey }),
      403,
      'ForbiddenError',
    );
    expect(ok(await world.call('GET', `/entries/${mine.entry.tag_id}`, { query: { guild_id: guild } }))).toEqual(mine);
    expect(ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: other } }))).toEqual(tag);
  });

  it('lets only the owner edit or delete (a guild key, or the bot acting for nobody, may too), and hands a tag over', async () => {
    const guild = await tagsGuild(world);
    const owner = snowflake();
    const someone = snowflake();
    const tag = await addTag(world, guild, { names: ['owned'], owner_id: owner });
    const id = tag.entry.tag_id;
    const as = (member: string) => ({ 'X-Acting-User-Id': member });
    expect(
      failed(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'hijack' }, headers: as(someone) }), 403, 'ForbiddenError'),
    ).toContain('owner');
    failed(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild }, headers: as(someone) }), 403, 'ForbiddenError');
    expect(ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }))).toEqual(tag);

    const handed = ok(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, owner_id: someone }, headers: as(owner) }));
    expect(handed.entry.owner_id).toBe(someone);
    failed(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'back' }, headers: as(owner) }), 403, 'ForbiddenError');
    const key = await guildApiKey(world, guild);
    expect(ok(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'by key' }, token: key })).entry.content).toBe('by key');
    expect(ok(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'by bot' } })).entry.content).toBe('by bot');
    ok(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild }, headers: as(someone) }));
  });

  it('answers 409 while the module is disabled, and DELETE /settings removes every tag and name in any state', async () => {
    const guild = snowflake();
    failed(await createTag(world, guild, { names: ['early'] }), 409, 'ModuleDisabledError');
    failed(await world.call('GET', '/entries', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(await world.call('GET', '/entries', { query: { guild_id: guild, name: 'early' } }), 409, 'ModuleDisabledError');
    expect(ok(await world.call('POST', '/enable', { body: { guild_id: guild } }))).toEqual({ status: true });
    const a = await addTag(world, guild, { names: ['a1', 'a2'] });
    const b = await addTag(world, guild, { names: ['b1'] });
    expect(ok(await world.call('POST', '/disable', { body: { guild_id: guild } }))).toEqual({ status: false });
    const id = a.entry.tag_id;
    failed(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(await world.call('PUT', `/entries/${id}`, { body: { guild_id: guild, content: 'x' } }), 409, 'ModuleDisabledError');
    failed(await world.call('DELETE', `/entries/${id}`, { body: { guild_id: guild } }), 409, 'ModuleDisabledError');
    failed(
      await world.call('POST', `/entries/${id}/send`, { body: { guild_id: guild, channel_id: await world.sandbox.channelIn(guild) } }),
      409,
      'ModuleDisabledError',
    );
    failed(await world.call('GET', '/entries/unknown', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');

    const removed = ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } }));
    expect(removed).toEqual({ entries: [b.entry, a.entry], entries_names: [...b.entry_names, ...a.entry_names] });
    expect(ok(await world.call('GET', '/status', { query: { guild_id: guild } }))).toEqual({ status: false });
    expect(ok(await world.call('DELETE', '/settings', { body: { guild_id: guild } }))).toEqual({ entries: [], entries_names: [] });
    ok(await world.call('POST', '/enable', { body: { guild_id: guild } }));
    expect(ok(await world.call('GET', '/entries', { query: { guild_id: guild } })).total).toBe(0);
    expect(await tagNamed(world, guild, 'a1')).toBeNull();
    await addTag(world, guild, { names: ['a1', 'b1'] });
  });
});
