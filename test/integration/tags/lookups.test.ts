/** Lookups by name decide from base-table keys, so index lag cannot hide a tag just created. */
import { describe, expect, it } from 'vitest';
import { addTag, ok, startWorld, tagNamed, tagsGuild } from './helpers.js';

const world = startWorld({ indexLagMs: 2000 });

describe('tag lookups with lagging indexes', () => {
  it('finds a tag by name, and by ID, right after it is created or renamed', async () => {
    const guild = await tagsGuild(world);
    const tag = await addTag(world, guild, { names: ['fresh'] });
    expect(await tagNamed(world, guild, 'FRESH')).toEqual(tag);
    expect(ok(await world.call('GET', `/entries/${tag.entry.tag_id}`, { query: { guild_id: guild } }))).toEqual(tag);
    const renamed = ok(await world.call('PUT', `/entries/${tag.entry.tag_id}`, { body: { guild_id: guild, names: ['newer'] } }));
    expect(await tagNamed(world, guild, 'newer')).toEqual(renamed);
    expect(await tagNamed(world, guild, 'fresh')).toBeNull();
  });
});
