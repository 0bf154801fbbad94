/**
 * Socials benchmark (`npx tsx bench/socials.ts`; `runSocialsBench()` for the
 * main runner): source requests per interval with 100 guilds watching the
 * same 10 sources across 300 channels, and the time from a source's new
 * item to the message, in polling intervals. DynamoDB requests per channel
 * an item reaches, and the time to reach 10 to 10,000 channels, are in
 * bench/fan-out.ts. Figures, not tests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pollAllStreams, pollSource } from '#functions/socials/polling.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, printRows } from './table.js';

const SECTION = 'socials';
const GUILDS = 100;
const CHANNELS_PER_GUILD = 3;
const INTERVAL_SECONDS = 2;

const snowflake = snowflakes(5234567890000000000n);

function sourcesControl(service: LocalService) {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${origin}/_sandbox/sources${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  };
}

const messagesIn = async (service: LocalService, channel: string): Promise<unknown[]> =>
  (await (await fetch(`${service.sandboxUrl}/channels/${channel}/messages?limit=100`, { headers: { authorization: 'Bot bench' } })).json()) as unknown[];

export async function runSocialsBench(): Promise<Row[]> {
  process.env.SOCIALS_POLL_SECONDS = String(INTERVAL_SECONDS);
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const control = sourcesControl(service);
  try {
    // 10 sources: 4 forum communities, 3 feeds, 3 stream accounts.
    const forums = ['benchone', 'benchtwo', 'benchthree', 'benchfour'];
    for (const f of forums) await control('POST', `/forum/${f}`);
    const feeds: string[] = [];
    for (const name of ['feed1', 'feed2', 'feed3']) feeds.push((await control('POST', '/feeds', { name, format: 'rss', title: name })).url);
    const streams = ['benchlive1', 'benchlive2', 'benchlive3'];
    for (const s of streams) await control('POST', `/stream/${s}`);
    const watched: [string, string, string][] = [
      ...forums.map((f) => ['forum', 'community', f] as [string, string, string]),
      ...feeds.map((u) => ['rss', 'rss_feed', u] as [string, string, string]),
      ...streams.map((s) => ['stream', 'stream_account', s] as [string, string, string]),
    ];
    const channels: string[] = [];
    for (let g = 0; g < GUILDS; g++) {
      const guild = snowflake();
      await succeed(service, 'POST', '/modules/socials/enable', { guild_id: guild });
      await succeed(service, 'PUT', '/modules/socials/settings', {
        guild_id: guild,
        monitor_forum: true,
        monitor_rss: true,
        monitor_stream: true,
        monitor_video: true,
      });
      const mine = Array.from({ length: CHANNELS_PER_GUILD }, snowflake);
      await ofGuild(service, guild, { channels: mine });
      channels.push(...mine);
      for (const [i, [kind, field, identifier]] of watched.entries()) {
        await succeed(service, 'POST', `/modules/socials/entries/${kind}`, {
          guild_id: guild,
          [field]: identifier,
          target_channel_id: mine[i % CHANNELS_PER_GUILD],
          mention_everyone: false,
        });
      }
    }

    // One interval: every source polled once, as the jobs do.
    await control('DELETE', '/requests');
    for (const f of forums) await pollSource('forum', f);
    for (const u of feeds) await pollSource('rss', u);
    await pollAllStreams();
    const counts = (await control('GET', '/requests')) as Record<string, number>;
    const sourceRequests = (counts.forum ?? 0) + (counts.feed ?? 0) + (counts.stream ?? 0);

    // New items found by the scheduler by itself: from the post to the message, in intervals (posted at random phases).
    const channel = channels[0]!;
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      await new Promise((r) => setTimeout(r, Math.random() * INTERVAL_SECONDS * 1000));
      const before = (await messagesIn(service, channel)).length;
      await control('POST', `/forum/${forums[0]}/posts`, { title: `Timed post ${i}` });
      const started = performance.now();
      while ((await messagesIn(service, channel)).length === before && performance.now() - started < INTERVAL_SECONDS * 5000)
        await new Promise((r) => setTimeout(r, 25));
      samples.push((performance.now() - started) / (INTERVAL_SECONDS * 1000));
    }
    samples.sort((a, b) => a - b);

    return [
      {
        section: SECTION,
        measure: `source requests per interval: ${GUILDS} guilds watching the same 10 sources across ${GUILDS * CHANNELS_PER_GUILD} channels`,
        value: String(sourceRequests),
        note: `floor 10; 4 forum + 3 feeds + 1 for 3 stream accounts (batched up to 100 a request)`,
      },
      {
        section: SECTION,
        measure: 'time from a new item to its message, in polling intervals (median of 5)',
        value: samples[2]!.toFixed(2),
        note: `worst ${samples[4]!.toFixed(2)}; interval ${INTERVAL_SECONDS} s here (SOCIALS_POLL_SECONDS, 300 by default); at most 1 plus dispatch`,
      },
    ];
  } finally {
    await service.stop();
    delete process.env.SOCIALS_POLL_SECONDS;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runSocialsBench());
}
