/**
 * Every wait on a source is bounded (behaviour §13, "Sources answer in
 * time"), end to end against a loopback source of this test that misbehaves
 * three ways: a gzip body that stops after 40 bytes, a gzip body that
 * trickles a byte at a time for ever, and a socket closed halfway through
 * the body. The source limit is lowered (`SOURCE_TIMEOUT_MS`) so nothing
 * here waits long.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollSource } from '#functions/socials/polling.js';
import { errorOf, type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { eventually } from '../polls/helpers.js';
import { SO, ok, socialGuild, unique, watch } from './helpers.js';

/** Long enough for a loopback answer on a busy machine, short enough that a test waits it out several times. */
const SOURCE_LIMIT_MS = 2000;
/** A bound well inside which every wait here ends: the limit, and time for a busy machine's own work (never the answer of a hung read). */
const WITHIN = 3 * SOURCE_LIMIT_MS;
type Mode = 'good' | 'stall' | 'trickle' | 'cut';
const STALLS: Mode[] = ['stall', 'trickle', 'cut'];

const feedXml = (items: number) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback</title>${Array.from(
    { length: items },
    (_, i) => `<item><title>Item ${i} of a feed that takes its time</title><guid>item-${i}</guid></item>`,
  ).join('')}</channel></rss>`;
const SMALL = gzipSync(feedXml(3));
// At a byte every 20 ms, this lasts far longer than any test.
const LARGE = gzipSync(feedXml(5000), { level: 0 });

let service: TestService;
let server: Server;
let base = '';
/** How each path answers, and when it was asked. */
const modes = new Map<string, Mode>();
const asked = new Map<string, number[]>();
const timers = new Set<NodeJS.Timeout>();

function answer(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', base).pathname;
  asked.set(path, [...(asked.get(path) ?? []), Date.now()]);
  const mode = modes.get(path) ?? 'good';
  const headers = { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip' };
  if (mode === 'good') return void res.writeHead(200, headers).end(SMALL);
  if (mode === 'stall') return void res.writeHead(200, headers).write(SMALL.subarray(0, 40));
  if (mode === 'cut') {
    res.writeHead(200, { ...headers, 'content-length': String(SMALL.length) }).write(SMALL.subarray(0, SMALL.length >> 1));
    const timer = setTimeout(() => req.socket.destroy(), 50);
    timers.add(timer);
    return;
  }
  res.writeHead(200, headers);
  let at = 0;
  const timer = setInterval(() => {
    if (at < LARGE.length) res.write(LARGE.subarray(at, ++at));
  }, 20);
  timers.add(timer);
  res.once('close', () => clearInterval(timer));
}

const env: Record<string, string | undefined> = {};
function setEnv(name: string, value: string) {
  if (!(name in env)) env[name] = process.env[name];
  process.env[name] = value;
}

beforeAll(async () => {
  service = await startTestService();
  server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setEnv('SOURCE_ALLOWED_HOSTS', [process.env.SOURCE_ALLOWED_HOSTS, base.slice('http://'.length)].filter(Boolean).join(','));
  setEnv('SOURCE_TIMEOUT_MS', String(SOURCE_LIMIT_MS));
});
afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  server.closeAllConnections();
  server.close();
  await service.stop();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** A fresh feed path of the loopback source, answering as `mode`. */
function feed(mode: Mode = 'good'): { path: string; url: string } {
  const path = `/${unique('feed')}`;
  modes.set(path, mode);
  return { path, url: `${base}${path}` };
}

const entriesOf = async (guild: string) =>
  ok(await service.call('GET', `${SO}/entries/rss`, { query: { guild_id: guild } })).entries as Record<string, unknown>[];

describe('a source that stalls, trickles or closes mid-body', () => {
  it.each(STALLS)('answers a create of a %s feed with a 422 within the source limit, storing nothing', async (mode) => {
    const guild = await socialGuild(service);
    const { url } = feed(mode);
    const started = Date.now();
    const res = await watch(service, guild, 'rss', url, await sandboxOf(service).channelIn(guild));
    const took = Date.now() - started;

    expect(res.status).toBe(422);
    expect(errorOf(res).message).toMatch(mode === 'cut' ? /could not be reached\.$/ : /did not answer in full in time \(a source has 2 s\)\.$/);
    // Without a bound on the read, the create never answers.
    expect(took).toBeLessThan(WITHIN);
    expect(await entriesOf(guild)).toEqual([]);
  });

  it.each(STALLS)('fails a poll of a feed that now answers as %s, within the source limit, and backs off', async (mode) => {
    const guild = await socialGuild(service);
    const { path, url } = feed();
    ok(await watch(service, guild, 'rss', url, await sandboxOf(service).channelIn(guild)));
    modes.set(path, mode);
    const started = Date.now();
    const next = await pollSource('rss', url);

    expect(Date.now() - started).toBeLessThan(WITHIN);
    expect(next! - started).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    const [entry] = await entriesOf(guild);
    expect(entry).toMatchObject({ failures: 1 });
    expect(Date.parse(String(entry!.next_poll_at)) - started).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
  });

  it("keeps polling another guild's feed on time while sixteen feeds of a guild stall", { timeout: 60_000 }, async () => {
    setEnv('SOCIALS_POLL_SECONDS', '1');
    const stalled = await socialGuild(service);
    const feeds = Array.from({ length: 16 }, () => feed());
    for (const { url } of feeds) ok(await watch(service, stalled, 'rss', url, await sandboxOf(service).channelIn(stalled)));
    for (const [i, { path }] of feeds.entries()) modes.set(path, STALLS[i % STALLS.length]!);
    const other = await socialGuild(service);
    const fine = feed();
    ok(await watch(service, other, 'rss', fine.url, await sandboxOf(service).channelIn(other)));

    // Every stalled feed is polled by the scheduler, fails and backs off...
    await eventually(async () => (await entriesOf(stalled)).every((entry) => Number(entry.failures) >= 1), 15_000, 'a failed poll of every stalled feed');
    // ...and meanwhile, and after, the other guild's feed is polled about every second.
    const from = Date.now();
    await eventually(async () => (asked.get(fine.path) ?? []).filter((at) => at >= from).length >= 3, 10_000, "three polls of the other guild's feed");
    const [entry] = await entriesOf(other);
    expect(entry).toMatchObject({ failures: 0 });
  });

  it('ends a scheduled poll at its run deadline when that comes before the source limit: the feed fails and backs off', { timeout: 60_000 }, async () => {
    setEnv('SOCIALS_POLL_SECONDS', '1');
    setEnv('SOURCE_TIMEOUT_MS', '120000');
    setEnv('JOB_TIME_LIMIT_SECONDS', '2');
    try {
      const guild = await socialGuild(service);
      const { path, url } = feed();
      ok(await watch(service, guild, 'rss', url, await sandboxOf(service).channelIn(guild)));
      modes.set(path, 'stall');
      const stalledAt = Date.now();
      // Long before the source's 120 s: the run's own deadline (2 s, less its margins) ended the read.
      const [entry] = await eventually(
        async () => {
          const entries = await entriesOf(guild);
          return Number(entries[0]?.failures) >= 1 ? entries : null;
        },
        20_000,
        'the stalled poll ended by its run deadline',
      );
      expect(Date.parse(String(entry!.next_poll_at)) - stalledAt).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    } finally {
      process.env.SOURCE_TIMEOUT_MS = String(SOURCE_LIMIT_MS);
    }
  });
});
