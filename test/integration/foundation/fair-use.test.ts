import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, type TestService, errorOf, ok, snowflake, startTestService } from '#test/helpers/local.js';

/** One request a second with bursts of two: a flood of a few dozen requests is far past it. */
const RATE = 1;
const BURST = 2;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ guildKeyRate: RATE });
});
afterAll(() => service.stop());

async function keyOf(guild: string): Promise<string> {
  return ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild, name: 'dashboard script' } })).api_key.secret;
}

const status = (guild: string, token?: string) => service.call('GET', '/modules/polls/status', { query: { guild_id: guild }, token });

function expectThrottled(res: CallResult): void {
  expect(res.status).toBe(429);
  expect(errorOf(res)).toEqual({
    code: 429,
    name: 'RateLimitedError',
    message: `Too Many Requests! Each guild API key may send ${RATE} requests a second (bursts of ${BURST}) and this one sent more; retry after the number of seconds in Retry-After.`,
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('fair use between callers', () => {
  it("throttles a flooding guild key with 429 and Retry-After while the bot's calls for the same guild all succeed", async () => {
    const guild = snowflake();
    const key = await keyOf(guild);
    const started = Date.now();
    // The bot and the script call at once, the bot more often than a key's whole burst.
    const [flood, bot] = await Promise.all([
      Promise.all(Array.from({ length: 24 }, () => status(guild, key))),
      Promise.all(
        Array.from({ length: 3 * BURST }, (_, i) =>
          i % 2 ? status(guild) : service.call('POST', '/modules/tags/enable', { body: { guild_id: snowflake() } }),
        ),
      ),
    ]);
    const seconds = (Date.now() - started) / 1000;

    for (const res of bot) ok(res);
    const passed = flood.filter((res) => res.status === 200);
    const refused = flood.filter((res) => res.status !== 200);
    // The burst, plus what the bucket refilled while the flood lasted.
    expect(passed.length).toBeGreaterThanOrEqual(BURST);
    expect(passed.length).toBeLessThanOrEqual(BURST + Math.ceil(seconds * RATE));
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) expectThrottled(res);
  });

  it("leaves another guild's key, and another key of the same guild, their own rate", async () => {
    const [guild, other] = [snowflake(), snowflake()];
    const [busy, second, othersKey] = [await keyOf(guild), await keyOf(guild), await keyOf(other)];
    const flood = await Promise.all(Array.from({ length: 12 }, () => status(guild, busy)));
    expect(flood.some((res) => res.status === 429)).toBe(true);
    expectThrottled(await status(guild, busy));
    expect(ok(await status(other, othersKey))).toEqual({ status: false });
    expect(ok(await status(guild, second))).toEqual({ status: false });
  });

  it('changes nothing on a refused request, and lets the key through again after Retry-After', async () => {
    const guild = snowflake();
    const key = await keyOf(guild);
    await Promise.all(Array.from({ length: 12 }, () => status(guild, key)));
    const refused = await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild }, token: key });
    expectThrottled(refused);
    expect(ok(await status(guild))).toEqual({ status: false });
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers.get('retry-after')) * 1000));
    expect(ok(await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild }, token: key })).status).toBe(true);
  });
});
