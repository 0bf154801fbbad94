/**
 * The draw against vectors computed independently when this test was
 * written: `openssl dgst -sha256 -hmac <seed>` over `<entry_id>:<r>:<j>`, the
 * first 16 hex digits as the integer, modulo the pool size by hand.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HASH_START, chainHash, drawPlaces, drawRound, drawRounds, entrantsHash, mintSeed, seedHash } from '#functions/giveaways/draw.js';

const SEED = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
const ENTRANTS = ['5', '3', '10', '18446744073709551615', '7', '12345678901234567890'];

describe('the verifiable draw', () => {
  it('publishes the SHA-256 of the seed as lowercase hex', () => {
    // openssl dgst -sha256 <<< the seed's 64 characters (no newline)
    expect(seedHash(SEED)).toBe('a8ae6e6ee929abea3afcfc5258c8ccd6f85273e0d4626d26c7279f3250f77c8e');
    expect(mintSeed()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches independently computed winners, round after round, IDs up to 2^64 - 1 sorted as numbers', () => {
    expect(drawRounds(SEED, 'gw-test-1', 3, 2, ENTRANTS)).toEqual([
      ['12345678901234567890', '18446744073709551615'],
      ['7', '3'],
      ['5', '10'],
    ]);
  });

  it('never repeats a winner across rerolls, and ends when nobody is left', () => {
    const entrants = Array.from({ length: 37 }, (_, i) => String(1000000000000000000n + BigInt(i * 7919)));
    const rounds = drawRounds(mintSeed(), 'e', 10, 5, entrants);
    const all = rounds.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(37);
    expect(rounds[7]).toHaveLength(2);
    expect(rounds[8]).toEqual([]);
    expect(drawRound(SEED, 'x', 1, 3, [])).toEqual([]);
  });

  it('does not depend on the order or duplicates of the entrants given', () => {
    const shuffled = [...ENTRANTS].reverse().concat(['5']);
    expect(drawRound(SEED, 'gw-test-1', 1, 2, shuffled)).toEqual(['12345678901234567890', '18446744073709551615']);
  });
});

describe('the draw from the list size alone (the end in pieces)', () => {
  it('picks the places drawRound picks its winners from, round after round', () => {
    const seed = mintSeed();
    const sorted = Array.from({ length: 257 }, (_, i) => String(900000000000000000n + BigInt(i * 104729)));
    const rounds = drawRounds(seed, 'gw-places', 6, 7, sorted);
    const taken: number[] = [];
    rounds.forEach((winners, r) => {
      const places = drawPlaces(seed, 'gw-places', r + 1, 7, sorted.length, taken);
      expect(places.map((p) => sorted[p])).toEqual(winners);
      taken.push(...places);
    });
  });

  it('hashes the sorted list chunk by chunk, the same whether read whole or in pieces', () => {
    const ids = Array.from({ length: 2500 }, (_, i) => String(2500 - i));
    const whole = entrantsHash(ids);
    const sorted = [...ids].reverse();
    expect(chainHash(chainHash(chainHash(HASH_START, sorted.slice(0, 1000)), sorted.slice(1000, 2000)), sorted.slice(2000))).toBe(whole);
    // One chunk by hand: SHA-256 of 64 zeros, a colon and the IDs joined by commas.
    expect(entrantsHash(['3', '1', '2'])).toBe(
      createHash('sha256')
        .update(`${'0'.repeat(64)}:1,2,3`)
        .digest('hex'),
    );
    expect(entrantsHash(['1', '2', '4'])).not.toBe(entrantsHash(['1', '2', '3']));
  });
});
