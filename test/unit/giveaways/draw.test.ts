/**
 * The draw against vectors computed independently when this test was
 * written: `openssl dgst -sha256 -hmac <seed>` over `<entry_id>:<r>:<j>`, the
 * first 16 hex digits as the integer, modulo the pool size by hand.
 */
import { describe, expect, it } from 'vitest';
import { drawRound, drawRounds, mintSeed, seedHash } from '#functions/giveaways/draw.js';

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
