/**
 * Feed items are data, never keys (behaviour §13): a guid or link of any
 * length, a feed URL of 2048 characters end to end, and a feed of 8000 items
 * polled again and again, each with what a watching channel sees.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEN_MAX, pollSource } from '#functions/socials/polling.js';
import { getSource } from '#functions/socials/store.js';
import { type TestService, errorOf, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { SO, announced, ok, posted, socialGuild, sourcesOf, unique, watch } from './helpers.js';

let service: TestService;
let server: Server | undefined;
let allowedBefore: string | undefined;
beforeAll(async () => {
  service = await startTestService();
  allowedBefore = process.env.SOURCE_ALLOWED_HOSTS;
});
afterAll(async () => {
  process.env.SOURCE_ALLOWED_HOSTS = allowedBefore;
  server?.close();
  await service.stop();
});

const contents = async (channel: string) => {
  await announced();
  return (await posted(service, channel)).map((m) => m.content);
};
const rssEntries = async (guild: string) => ok(await service.call('GET', `${SO}/entries/rss`, { query: { guild_id: guild } }));

describe('items that cannot stop a feed', () => {
  it('announces an item whose guid and link are 5000 characters once, and the items after it', async () => {
    const sources = sourcesOf(service);
    const name = unique('long');
    const url = await sources.feed(name);
    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await watch(service, guild, 'rss', url, channel));
    const link = `https://example.org/${'l'.repeat(4980)}`;
    await sources.entry(name, { title: 'Long one', guid: `urn:${'g'.repeat(4996)}`, link });
    await sources.entry(name, { title: 'Short one', guid: 'short-1', link: 'https://example.org/short' });
    await pollSource('rss', url);
    await pollSource('rss', url);
    const shown = await contents(channel);
    expect(shown).toHaveLength(2);
    expect(shown[0]!.startsWith('**Long one**\nhttps://example.org/lll')).toBe(true);
    expect(shown[0]!.length).toBeLessThanOrEqual(2000);
    expect(shown[1]).toBe('**Short one**\nhttps://example.org/short');
    expect((await rssEntries(guild)).entries[0]).toMatchObject({ failures: 0, latest_entry: 'https://example.org/short' });
  });

  it('watches, polls, announces and deletes a feed whose URL is 2048 characters', async () => {
    const sources = sourcesOf(service);
    const name = unique('wide');
    const base = `${await sources.feed(name)}?pad=`;
    const url = base + 'p'.repeat(2048 - base.length);
    expect(url).toHaveLength(2048);
    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    const created = ok(await watch(service, guild, 'rss', url, channel));
    expect(created.entry.rss_feed).toBe(url);
    await sources.entry(name, { title: 'Through a long URL', guid: 'w1' });
    await pollSource('rss', url);
    expect(await contents(channel)).toEqual(['**Through a long URL**']);
    const over = await watch(service, guild, 'rss', `${url}p`, await sandboxOf(service).channelIn(guild));
    expect(over.status).toBe(422);
    expect(errorOf(over).message).toMatch(/rss_feed/);

    const deleted = ok(await service.call('DELETE', `${SO}/entries/rss`, { body: { guild_id: guild, rss_feed: url } }));
    expect(deleted.entry.rss_feed).toBe(url);
    expect((await rssEntries(guild)).total).toBe(0);
    // Nothing left behind: the source is forgotten with its last watcher.
    expect(await getSource('rss', url)).toBeNull();
  });

  it('remembers at most 1000 items of a feed of 8000, announces none of them on two polls, then the one new item', async () => {
    const items: string[] = [];
    const xml = () =>
      `<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>${items.map((guid, i) => `<item><title>Item ${items.length - i}</title><guid>${guid}</guid></item>`).join('')}</channel></rss>`;
    for (let i = 8000; i >= 1; i--) items.push(`big-${i}-${'x'.repeat(40)}`);
    server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(xml()));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    process.env.SOURCE_ALLOWED_HOSTS = [allowedBefore, host].filter(Boolean).join(',');
    const url = `http://${host}/big.xml`;
    const guild = await socialGuild(service);
    const channel = await sandboxOf(service).channelIn(guild);
    ok(await watch(service, guild, 'rss', url, channel));
    expect((await getSource('rss', url))!.seen).toHaveLength(SEEN_MAX);

    await pollSource('rss', url);
    await pollSource('rss', url);
    expect(await contents(channel)).toEqual([]);
    expect((await rssEntries(guild)).entries[0].failures).toBe(0);

    items.unshift('big-8001');
    await pollSource('rss', url);
    await pollSource('rss', url);
    expect(await contents(channel)).toEqual(['**Item 8001**']);
    expect((await getSource('rss', url))!.seen).toHaveLength(SEEN_MAX);
  });
});
