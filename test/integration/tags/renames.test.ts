/**
 * Renames: `names` replaces every name, a name moves between tags only
 * through being free, and concurrent renames never leave a name with two
 * tags or a tag without the names it was given.
 */
import { describe, expect, it } from 'vitest';
import { addTag, failed, namesOf, ok, startWorld, tagNamed, tagsGuild } from './helpers.js';

const world = startWorld();

const rename = (guild: string, tagId: string, names: string[]) => world.call('PUT', `/entries/${tagId}`, { body: { guild_id: guild, names } });

describe('tag renames', () => {
  it('replaces every name, keeps the records of names it keeps, and frees the others', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['one', 'two', 'three'] });
    const id = tag.entry.tag_id;
    const renamed = ok(await rename(guild, id, ['TWO', 'four']));
    expect(namesOf(renamed)).toEqual(['TWO', 'four']);
    // `two` keeps its record (new spelling), `four` is new.
    expect(renamed.entry_names[0]).toEqual({ ...tag.entry_names[1], name: 'TWO' });
    expect(renamed.entry_names[1].id).not.toBe(tag.entry_names[1].id);
    expect(renamed.entry).toMatchObject({ content: tag.entry.content, owner_id: tag.entry.owner_id });
    for (const name of ['two', 'Four']) expect((await tagNamed(world, guild, name))?.entry.tag_id).toBe(id);
    for (const name of ['one', 'three']) expect(await tagNamed(world, guild, name)).toBeNull();
    // Freed names are anyone's.
    await addTag(world, guild, { names: ['one', 'three'] });
  });

  it('refuses a name another tag holds, and changes nothing of the edit', async () => {
    const guild = await tagsGuild(world);
    const a = await addTag(world, guild, { names: ['alpha'] });
    const b = await addTag(world, guild, { names: ['beta'] });
    expect(
      failed(
        await world.call('PUT', `/entries/${a.entry.tag_id}`, { body: { guild_id: guild, names: ['gamma', 'BETA'], content: 'changed' } }),
        422,
        'Unprocessable Entity',
      ),
    ).toContain("'BETA'");
    expect(ok(await world.call('GET', `/entries/${a.entry.tag_id}`, { query: { guild_id: guild } }))).toEqual(a);
    expect(await tagNamed(world, guild, 'gamma')).toBeNull();
    expect(await tagNamed(world, guild, 'beta')).toEqual(b);
    // Two tags swap names through a free one.
    ok(await rename(guild, a.entry.tag_id, ['tmp']));
    ok(await rename(guild, b.entry.tag_id, ['alpha']));
    ok(await rename(guild, a.entry.tag_id, ['beta']));
    expect((await tagNamed(world, guild, 'alpha'))?.entry.tag_id).toBe(b.entry.tag_id);
    expect((await tagNamed(world, guild, 'beta'))?.entry.tag_id).toBe(a.entry.tag_id);
  });

  it('gives a name wanted by two renames at once to one tag only', async () => {
    const guild = await tagsGuild(world);
    const tags = await Promise.all(['p', 'q', 'r', 's'].map((n) => addTag(world, guild, { names: [n] })));
    const results = await Promise.all(tags.map((t, i) => rename(guild, t.entry.tag_id, [`prize`, `own${i}`])));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) failed(r, 422, 'Unprocessable Entity');
    const winner = results.find((r) => r.status === 200)!.body.data;
    expect(await tagNamed(world, guild, 'PRIZE')).toEqual(winner);
    // The losers kept their names and claimed nothing.
    const listed = ok(await world.call('GET', '/entries', { query: { guild_id: guild } })).entries;
    const byId = new Map(listed.map((t: { entry: { tag_id: string } }) => [t.entry.tag_id, t]));
    tags.forEach((t, i) => {
      if (t.entry.tag_id === winner.entry.tag_id) return;
      expect(byId.get(t.entry.tag_id)).toEqual(t);
      expect(namesOf(winner)).not.toContain(`own${i}`);
    });
    for (let i = 0; i < tags.length; i++) if (!namesOf(winner).includes(`own${i}`)) expect(await tagNamed(world, guild, `own${i}`)).toBeNull();
  });

  it('applies concurrent renames of one tag one after the other: the last one wins, no name is lost or left behind', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['start'] });
    const id = tag.entry.tag_id;
    const wanted = Array.from({ length: 5 }, (_, i) => [`n${i}a`, `n${i}b`, 'start']);
    const results = await Promise.all(wanted.map((names) => rename(guild, id, names)));
    for (const r of results) ok(r);
    const final = ok(await world.call('GET', `/entries/${id}`, { query: { guild_id: guild } }));
    expect(wanted.map((w) => w.join())).toContain(namesOf(final).join());
    // Every name the tag lists finds it; every name it does not list is free.
    for (const w of wanted) {
      for (const name of w) {
        const found = await tagNamed(world, guild, name);
        if (namesOf(final).includes(name)) expect(found).toEqual(final);
        else expect(found).toBeNull();
      }
    }
    const freed = wanted.flat().filter((n) => !namesOf(final).includes(n));
    await addTag(world, guild, { names: [...new Set(freed)].slice(0, 10) });
  });

  it('gives one tag renamed twice at once to the same new name that name (both edits succeed)', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['before'] });
    const results = await Promise.all(
      [0, 1, 2].map((i) => world.call('PUT', `/entries/${tag.entry.tag_id}`, { body: { guild_id: guild, names: ['after'], content: `edit ${i}` } })),
    );
    for (const r of results) ok(r);
    const final = ok(await world.call('GET', `/entries/${tag.entry.tag_id}`, { query: { guild_id: guild } }));
    expect(namesOf(final)).toEqual(['after']);
    expect(await tagNamed(world, guild, 'AFTER')).toEqual(final);
    expect(await tagNamed(world, guild, 'before')).toBeNull();
  });

  it('never lets a lookup miss the tag while it is renamed to names including the one looked up', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['stay', 'x0'] });
    const id = tag.entry.tag_id;
    let renaming = true;
    const renames = (async () => {
      for (let i = 1; i <= 15; i++) ok(await rename(guild, id, [`x${i}`, 'stay']));
      renaming = false;
    })();
    let lookups = 0;
    while (renaming) {
      const found = await tagNamed(world, guild, 'STAY');
      expect(found?.entry.tag_id).toBe(id);
      lookups++;
    }
    await renames;
    expect(lookups).toBeGreaterThan(0);
  });
});
