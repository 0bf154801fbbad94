/** GET /modules/tags/count: how many tags a guild has (the trial endpoint of docs/architecture.md's recipe). */
import { describe, expect, it } from 'vitest';
import { addTag, failed, ok, startWorld, tagsGuild } from './helpers.js';

const world = startWorld();

describe('the tag count', () => {
  it("answers the guild's tags as they are created and deleted, and 409 while the module is disabled", async () => {
    const guild = await tagsGuild(world);
    expect(ok(await world.call('GET', '/count', { query: { guild_id: guild } }))).toEqual({ count: 0 });
    const first = await addTag(world, guild, { names: ['one'] });
    await addTag(world, guild, { names: ['two'] });
    expect(ok(await world.call('GET', '/count', { query: { guild_id: guild } }))).toEqual({ count: 2 });
    ok(await world.call('DELETE', `/entries/${first.entry.tag_id}`, { body: { guild_id: guild } }));
    expect(ok(await world.call('GET', '/count', { query: { guild_id: guild } }))).toEqual({ count: 1 });
    ok(await world.call('POST', '/disable', { body: { guild_id: guild } }));
    failed(await world.call('GET', '/count', { query: { guild_id: guild } }), 409, 'ModuleDisabledError');
  });
});
