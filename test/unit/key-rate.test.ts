import { afterEach, describe, expect, it } from 'vitest';
import { parseGuildKeyRate } from '#infra/config.js';
import { KeyRate } from '#infra/local/key-rate.js';
import { startLocal } from '#infra/local/start.js';

describe("local mode's per-key rate", () => {
  const clock = { now: 0 };
  const rate = (perSecond: number) => new KeyRate(perSecond, () => clock.now);

  it('lets a burst of twice the rate through, then answers the whole seconds until the next request may go', () => {
    clock.now = 1_000;
    const limit = rate(10);
    expect(Array.from({ length: 20 }, () => limit.take('a'))).toEqual(Array(20).fill(0));
    expect(limit.take('a')).toBe(1);
    clock.now += 100; // one request's worth refilled
    expect(limit.take('a')).toBe(0);
    expect(limit.take('a')).toBe(1);
  });

  it('refills at the rate up to the burst, never beyond', () => {
    clock.now = 0;
    const limit = rate(1);
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 1]);
    clock.now += 60_000;
    expect([limit.take('a'), limit.take('a'), limit.take('a')]).toEqual([0, 0, 1]);
  });

  it('keeps one bucket per key', () => {
    clock.now = 0;
    const limit = rate(1);
    limit.take('a');
    limit.take('a');
    expect(limit.take('a')).toBe(1);
    expect(limit.take('b')).toBe(0);
  });
});

describe('GUILD_KEY_RATE', () => {
  afterEach(() => {
    delete process.env.GUILD_KEY_RATE;
  });

  it('is a whole number of requests a second, 10 when unset', () => {
    expect(parseGuildKeyRate(undefined)).toBe(10);
    expect(parseGuildKeyRate('')).toBe(10);
    expect(parseGuildKeyRate('25')).toBe(25);
    expect(parseGuildKeyRate(3)).toBe(3);
    for (const bad of ['0', '-1', '2.5', 'fast', '1e3', 0, 1.5]) {
      expect(() => parseGuildKeyRate(bad)).toThrow(
        `GUILD_KEY_RATE must be a whole number of requests a second for each guild API key, 1 or more (default 10), not ${JSON.stringify(bad)}`,
      );
    }
  });

  it('stops local mode from starting when it is not one, before anything is opened', async () => {
    process.env.GUILD_KEY_RATE = 'fast';
    await expect(startLocal({ port: 0, dataDir: null })).rejects.toThrow(
      'GUILD_KEY_RATE must be a whole number of requests a second for each guild API key, 1 or more (default 10), not "fast"',
    );
  });
});
