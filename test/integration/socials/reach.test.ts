/**
 * Sources that never reach inside a network (behaviour §13), end to end, with
 * loopback targets only: servers of this test on 127.0.0.1, refused unless
 * SOURCE_ALLOWED_HOSTS names them, redirect chains, and a poll whose feed
 * starts redirecting somewhere it may not go.
 */
import { type Server, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollSource } from '#functions/socials/polling.js';
import { errorOf, type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { SO, ok, socialGuild, watch } from './helpers.js';

let service: TestService;
const servers: Server[] = [];

/** A loopback server of this test: answers by `handle`, counting the requests it got. */
async function loopbackServer(handle: (req: IncomingMessage, res: ServerResponse, base: string) => void) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handle(req, res, base);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, host: base.slice('http://'.length), requests };
}

const FEED = (title: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><item><title>One</title><guid>one</guid></item></channel></rss>`;

/** A feed at /feed, redirects /hop/<n> -> /hop/<n-1> -> ... -> /feed, and /away -> `away` when set. */
function feedServer(state: { away?: string; title?: string } = {}) {
  return loopbackServer((req, res, base) => {
    const hop = /^\/hop\/(\d+)$/.exec(req.url ?? '');
    if (hop) {
      const n = Number(hop[1]);
      res.writeHead(302, { location: n > 1 ? `${base}/hop/${n - 1}` : '/feed' }).end();
    } else if (req.url === '/away' && state.away) res.writeHead(301, { location: state.away }).end();
    else if (req.url === '/feed' || req.url === '/away') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(FEED(state.title ?? 'Loopback'));
    else if (req.url === '/secret') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>internal-admin-token-42 <unclosed></body></html>');
    else res.writeHead(404).end();
  });
}

let allowedBefore: string | undefined;
beforeAll(async () => {
  service = await startTestService();
  allowedBefore = process.env.SOURCE_ALLOWED_HOSTS;
});
afterEach(() => {
  process.env.SOURCE_ALLOWED_HOSTS = allowedBefore;
});
afterAll(async () => {
  for (const server of servers) server.close();
  await service.stop();
});

const allow = (...hosts: string[]) => {
  process.env.SOURCE_ALLOWED_HOSTS = [allowedBefore, ...hosts].filter(Boolean).join(',');
};

async function refused(url: string): Promise<string> {
  const guild = await socialGuild(service);
  const res = await watch(service, guild, 'rss', url, await sandboxOf(service).channelIn(guild));
  expect(res.status, url).toBe(422);
  expect(ok(await service.call('GET', `${SO}/entries/rss`, { query: { guild_id: guild } })).total).toBe(0);
  return errorOf(res).message;
}

describe('sources that never reach inside a network', () => {
  it('refuses a loopback server SOURCE_ALLOWED_HOSTS does not name, without sending it anything', async () => {
    const inside = await feedServer();
    expect(await refused(`${inside.base}/feed`)).toMatch(/Field 'rss_feed': The feed .* is refused: it names port \d+; a source must be on port 80 or 443/);
    // On port 80 it is the address that is refused (nothing is listening there, and nothing is tried).
    expect(await refused('http://127.0.0.1/feed')).toMatch(/is refused: its host is a loopback address; a source must be at public unicast addresses only/);
    expect(await refused('http://[::ffff:127.0.0.1]/feed')).toMatch(/IPv4-mapped loopback/);
    expect(await refused('http://localhost/feed')).toMatch(/resolves to a loopback address/);
    expect(inside.requests).toEqual([]);
  });

  it('follows 5 redirects of an allowed host and refuses the sixth', async () => {
    const feed = await feedServer();
    allow(feed.host);
    const guild = await socialGuild(service);
    ok(await watch(service, guild, 'rss', `${feed.base}/hop/5`, await sandboxOf(service).channelIn(guild)));
    const before = feed.requests.length;
    expect(await refused(`${feed.base}/hop/6`)).toMatch(/is refused: it redirected more than 5 times/);
    // The sixth redirect was refused before it was followed: /hop/6 .. /hop/1, never /feed.
    expect(feed.requests.slice(before)).toEqual(['/hop/6', '/hop/5', '/hop/4', '/hop/3', '/hop/2', '/hop/1']);
  });

  it('refuses a redirect from an allowed host to a loopback port it does not name, sending that port nothing', async () => {
    const inside = await feedServer();
    const front = await feedServer({ away: `${inside.base}/feed` });
    allow(front.host);
    expect(await refused(`${front.base}/away`)).toMatch(/is refused: it names port \d+; a source must be on port 80 or 443/);
    expect(inside.requests).toEqual([]);
  });

  it('answers a class of failure in the 422, never what the host said', async () => {
    const feed = await feedServer();
    allow(feed.host, '127.0.0.1:9');
    const notFeed = await refused(`${feed.base}/secret`);
    expect(notFeed).toMatch(/is not a feed \(not well-formed RSS 2.0 or Atom\)/);
    expect(notFeed).not.toMatch(/internal-admin-token|unclosed|html|body/i);
    const closed = await refused('http://127.0.0.1:9/feed');
    expect(closed).toMatch(/could not be reached\.$/);
    expect(closed).not.toMatch(/ECONNREFUSED|connect/);
  });

  it('fails a poll whose feed now redirects where it may not go, backs off, and fetches nothing there', async () => {
    const inside = await feedServer();
    const state: { away?: string } = {};
    const front = await feedServer(state);
    allow(front.host);
    const guild = await socialGuild(service);
    const url = `${front.base}/away`;
    ok(await watch(service, guild, 'rss', url, await sandboxOf(service).channelIn(guild)));
    state.away = `${inside.base}/feed`;
    const before = Date.now();
    const next = await pollSource('rss', url);
    const [entry] = ok(await service.call('GET', `${SO}/entries/rss`, { query: { guild_id: guild } })).entries;
    expect(entry.failures).toBe(1);
    expect(next! - before).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    expect(inside.requests).toEqual([]);
  });
});
