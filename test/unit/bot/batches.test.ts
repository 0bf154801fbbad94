/** The bot's statistics batches (clients/bot/batches.ts): per guild, at most every flushMs or 500 records, flushed on stop, one key a batch. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCEPTED, MAX_RECORDS, StatsBatches } from '../../../clients/bot/batches.js';
import { type Call, call } from '../../../clients/bot/calls.js';
import { type CallResult, createService } from '../../../clients/bot/service.js';

const G1 = '100000000000000001';
const G2 = '100000000000000002';

const sentMessage = (guild: string, n: number) =>
  call('post', '/modules/serverstats/stats/messages/sent', { guild_id: guild, channel_id: '200', author_id: '300', message_id: String(1000 + n) });

function fakeService() {
  const sent: Call[] = [];
  const send = async (c: Call): Promise<CallResult> => {
    sent.push(structuredClone(c));
    return { operation: c.operation, status: 200, error: null, attempts: 1 };
  };
  return { sent, send };
}

afterEach(() => vi.useRealTimers());

describe('StatsBatches', () => {
  it("holds a guild's recordings and sends them as one batch after flushMs, each with its event's time", async () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-06T18:00:00.000Z') });
    const { sent, send } = fakeService();
    const batches = new StatsBatches(send, { flushMs: 10_000 });
    expect(batches.take(sentMessage(G1, 1))).toMatchObject({ status: ACCEPTED });
    vi.advanceTimersByTime(4_000);
    batches.take(call('put', '/modules/serverstats/stats/voice', { guild_id: G1, channel_id: '200', left_member_id: '300' }));
    batches.take(sentMessage(G2, 2));
    batches.take(call('post', '/modules/serverstats/stats/commands/used', { guild_id: G1, initiator_id: '300', command: 'tag' }));
    // Not a batched family: sent as it is.
    expect(batches.take(call('post', '/modules/serverstats/starboard/check/add', { guild_id: G1, channel_id: '200', message_id: '1' }))).toBeNull();
    vi.advanceTimersByTime(5_999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.operation).toBe('POST /modules/serverstats/stats/batch');
    expect(sent[0]!.body).toEqual({
      guild_id: G1,
      records: [
        { family: 'messages/sent', at: '2026-12-06T18:00:00.000Z', channel_id: '200', author_id: '300', message_id: '1001' },
        { family: 'voice/left', at: '2026-12-06T18:00:04.000Z', channel_id: '200', left_member_id: '300' },
        { family: 'commands/used', at: '2026-12-06T18:00:04.000Z', initiator_id: '300', command: 'tag' },
      ],
    });
    vi.advanceTimersByTime(4_000);
    expect(sent.map((c) => c.body.guild_id)).toEqual([G1, G2]);
    expect(sent[0]!.idempotencyKey).toMatch(/^stats-batch:/);
    expect(sent[1]!.idempotencyKey).not.toBe(sent[0]!.idempotencyKey);
  });

  it('sends at 500 records without waiting, and before a body would pass 64 KiB', async () => {
    vi.useFakeTimers();
    const { sent, send } = fakeService();
    const batches = new StatsBatches(send, { flushMs: 10_000 });
    for (let n = 0; n < MAX_RECORDS; n++)
      batches.take(call('post', '/modules/serverstats/stats/members/joined', { guild_id: G1, joined_member_id: String(n + 1) }));
    expect(sent).toHaveLength(1);
    expect((sent[0]!.body.records as unknown[]).length).toBe(MAX_RECORDS);

    for (let n = 0; n < MAX_RECORDS; n++) batches.take(sentMessage(G2, n));
    expect(sent.length).toBe(2);
    expect(Buffer.byteLength(JSON.stringify(sent[1]!.body))).toBeLessThanOrEqual(64 * 1024);
    vi.advanceTimersByTime(10_000);
    expect(sent.slice(1).reduce((n, c) => n + (c.body.records as unknown[]).length, 0)).toBe(MAX_RECORDS);
  });

  it('holds a dispatch sent again (the same event key) once', () => {
    vi.useFakeTimers();
    const { sent, send } = fakeService();
    const batches = new StatsBatches(send, { flushMs: 10 });
    const keyed = { ...sentMessage(G1, 1), idempotencyKey: 'message:1:post.serverstats.stats.messages.sent' };
    batches.take(keyed);
    batches.take({ ...keyed });
    vi.advanceTimersByTime(10);
    expect((sent[0]!.body.records as unknown[]).length).toBe(1);
  });

  it('sends everything held on stop, and waits for it', async () => {
    const told: number[] = [];
    let release: () => void = () => undefined;
    const slow = async (c: Call): Promise<CallResult> => {
      await new Promise<void>((resolve) => (release = resolve));
      return { operation: c.operation, status: 200, error: null, attempts: 1 };
    };
    const batches = new StatsBatches(slow, { flushMs: 60_000, sent: (_g, records) => told.push(records) });
    batches.take(sentMessage(G1, 1));
    batches.take(sentMessage(G1, 2));
    let stopped = false;
    const stopping = batches.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(told).toEqual([2]);
  });

  it("keeps a batch's Idempotency-Key across the service client's retries", async () => {
    const keys: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      req.resume();
      req.on('end', () => {
        const first = keys.length === 1;
        res.writeHead(first ? 503 : 200, { 'content-type': 'application/json', ...(first ? { 'retry-after': '0' } : {}) });
        res.end(
          JSON.stringify(
            first
              ? { success: false, data: {}, error: { code: 503, name: 'ServiceUnavailableError', message: 'busy' } }
              : { success: true, data: { recorded: 1, skipped: 0 }, error: null },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const results: CallResult[] = [];
      const batches = new StatsBatches(createService({ url, token: 't', retry: { maxAttempts: 3, maxWaitMs: 10, baseMs: 1 } }), {
        sent: (_g, _n, r) => results.push(r),
      });
      batches.take(sentMessage(G1, 1));
      await batches.stop();
      expect(results).toMatchObject([{ status: 200, attempts: 2 }]);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^stats-batch:/);
      expect(keys[1]).toBe(keys[0]);
    } finally {
      server.close();
    }
  });
});
