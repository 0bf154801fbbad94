/**
 * Exactly once over every internal route (behaviour §16), generated from the
 * route table: each mutating route the bot calls with the service token is
 * sent its sample request (made from its schemas, in a guild where its module
 * is on, naming a channel and a message the platform holds) with a fresh
 * `Idempotency-Key`, then the same request with the same key. A final first
 * answer (a 2xx, or a 4xx other than 409 and 429) comes back replayed, and the
 * repeat neither calls the platform nor changes an item of the table other
 * than the key's own; a first answer that is not final is not replayed.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.js';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { loadSpec } from '#shared/http/load-handler.js';
import type { Route } from '#shared/http/route.js';
import { type CallResult, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { jsonText, sampleRequest } from '#test/helpers/schema-samples.js';

const internal = routes.filter((route) => route.access === 'internal' && route.method !== 'GET');
const MODULES = ['reactionroles', 'polls', 'socials', 'serverstats', 'welcoming', 'invite-tracker', 'giveaways', 'verifier', 'tags'];

let service: TestService;
const GUILD = snowflake();
const MEMBER = snowflake();
let channel = '';
let message = '';
beforeAll(async () => {
  service = await startTestService();
  for (const module of MODULES) ok(await service.call('POST', `/modules/${module}/enable`, { body: { guild_id: GUILD } }));
  channel = await sandbox().channelIn(GUILD);
  message = (await sandbox().post(channel, MEMBER, { content: 'A message the events name' })).id;
}, 60_000);
afterAll(() => service.stop());

const sandbox = () => sandboxOf(service);

/** The route's sample request, naming the guild, its channel and its message wherever a field of that name is. */
async function requestOf(route: Route): Promise<{ path: string; body: string | undefined; query: Record<string, string> }> {
  const sample = sampleRequest(await loadSpec(route));
  const named = (name: string, value: unknown): unknown => {
    if (name === 'guild_id') return GUILD;
    if (name === 'channel_id') return channel;
    if (name === 'message_id') return message;
    return value;
  };
  const fill = (part: unknown): unknown =>
    part && typeof part === 'object' && !Array.isArray(part) ? Object.fromEntries(Object.entries(part).map(([k, v]) => [k, named(k, v)])) : part;
  const query = fill(sample.query) as Record<string, string>;
  if (sample.body && typeof sample.body === 'object') Object.assign(sample.body, NEEDS[route.id]?.());
  const params = sample.path as Record<string, string>;
  const path = route.path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(String(named(name, params[name]))));
  return { path, query, body: sample.body === undefined ? undefined : jsonText(fill(sample.body)) };
}

/** Every item of the table. */
async function scan(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The table's items other than idempotency keys, as comparable text. */
const withoutKeys = (items: Record<string, unknown>[]): string[] =>
  items
    .filter((item) => item.entity !== 'idempotency_key')
    .map((item) => JSON.stringify(item, (_name, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value)))
    .sort();

/** Scheduled work that is due now or in a moment and not yet done: the scheduler will change the table on its own. */
const dueSoon = (items: Record<string, unknown>[]) =>
  items.some((item) => item.entity === 'due_work' && item.phase !== 'dead' && Number(item.due_at) <= Date.now() + 2_000);

/**
 * The table as the first call left it once what it set going has settled:
 * no scheduled work due in a moment, and two looks a moment apart see the
 * same items and platform requests.
 */
async function settled(): Promise<string[]> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    const items = await scan();
    const now = JSON.stringify([withoutKeys(items), (await sandbox().requests()).length]);
    if (now === last && !dueSoon(items)) return withoutKeys(items);
    last = now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the table did not settle in 5 s');
}

/** Values a route's rules need beside the sample, so its first call passes them (addresses on loopback: nothing may leave the machine). */
const NEEDS: Record<string, () => Record<string, unknown>> = {
  'polls.vote': () => ({ interacted_message_id: message, emoji_name: '😀' }),
  'socials.send-forum': () => ({ url: 'https://127.0.0.1/forum/post' }),
  'socials.send-rss': () => ({ rss_feed_url: 'https://127.0.0.1/feed.xml' }),
  'socials.send-stream': () => ({ stream_account: 'some_account' }),
  'socials.stream-refresh-filter': () => ({ stream_account: 'some_account' }),
  'parked.replay': () => ({ all: true }),
  'serverstats.record-batch': () => ({
    records: [{ family: 'messages/sent', at: new Date().toISOString(), channel_id: '123456789012345670', author_id: MEMBER, message_id: '123456789012345671' }],
  }),
};

/**
 * Routes whose sample breaks a rule this sweep does not meet (an interaction's
 * fields): a rule refusal is checked before the key is taken (§16), so its
 * repeat is refused again, not replayed — and still changes nothing.
 */
const RULE_REFUSED = new Set(['reactionroles.check']);

const isFinal = (status: number) => status < 500 && status !== 409 && status !== 429;
const tally = { success: [] as string[], refused: [] as string[], notFinal: [] as string[] };
let keys = 0;

describe('every internal mutating route, repeated with one Idempotency-Key', () => {
  it('covers the bot’s event routes of the route table', () => {
    expect(internal.length).toBeGreaterThan(80);
    expect(internal.map((r) => r.id)).toEqual(expect.arrayContaining(['polls.vote', 'reactionroles.check', 'serverstats.stats.voice.close', 'parked.replay']));
  });

  it.each(internal.map((route) => [`${route.method} ${route.id}`, route] as const))(
    '%s: the repeat is the first answer, with no effect',
    async (_name, route) => {
      const request = await requestOf(route);
      const key = `sweep:${route.id}:${++keys}`;
      const send = (): Promise<CallResult> =>
        service.call(route.method, request.path, {
          rawBody: request.body,
          query: request.query,
          headers: { 'x-acting-user-id': MEMBER, 'Idempotency-Key': key },
        });
      const first = await send();
      expect(first.headers.get('idempotent-replayed'), first.text).toBeNull();
      const before = await settled();
      await sandbox().clearRequests();
      const second = await send();
      const after = await settled();
      const platformCalls = (await sandbox().requests()).map((r) => `${r.method} ${r.path}`);
      if (!isFinal(first.status)) {
        tally.notFinal.push(`${route.id} ${first.status}`);
        expect(second.headers.get('idempotent-replayed')).toBeNull();
        return;
      }
      (first.status < 300 ? tally.success : tally.refused).push(`${route.id} ${first.status}`);
      expect({ status: second.status, text: second.text, replayed: second.headers.get('idempotent-replayed') }).toEqual({
        status: first.status,
        text: first.text,
        replayed: RULE_REFUSED.has(route.id) && first.status === 422 ? null : 'true',
      });
      expect(platformCalls).toEqual([]);
      expect(after).toEqual(before);
    },
  );

  // Most samples reach the work itself, so the sweep repeats real effects, not only refusals. SWEEP_REPORT=1 prints the tally.
  it('ran most routes to a success', () => {
    if (process.env.SWEEP_REPORT)
      console.log(
        `idempotency sweep: ${internal.length} routes; ${tally.success.length} answered 2xx, ${tally.refused.length} a final 4xx, ${tally.notFinal.length} not final\n` +
          `4xx: ${tally.refused.join(', ')}\nnot final: ${tally.notFinal.join(', ')}`,
      );
    expect(tally.success.length).toBeGreaterThanOrEqual(80);
  });
});
