/**
 * The verifiable draw (behaviour §12), as one pure function: anyone holding
 * the published seed and the entrants can repeat it.
 *
 * Round r (1 at the end, 2, 3 ... for each reroll): the pool is the entrants
 * not drawn in an earlier round, sorted by numeric ID ascending. For
 * j = 0 .. n-1 with n = min(winner_count, pool size): h = HMAC-SHA256(key:
 * the seed's 64 hex characters, message: `<entry_id>:<r>:<j>`); x = the first
 * 8 bytes of h as an unsigned big-endian integer; the winner is
 * pool[x mod pool size], taken out of the pool before the next j.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Rerolls a giveaway allows (behaviour §13): with the end's round, at most MAX_REROLLS + 1 rounds. */
export const MAX_REROLLS = 10;

/** A new secret seed: 32 random bytes as 64 lowercase hex characters. */
export const mintSeed = () => randomBytes(32).toString('hex');

/** What is published while the giveaway runs: SHA-256 of the seed's 64 characters, lowercase hex. */
export const seedHash = (seed: string) => createHash('sha256').update(seed, 'utf8').digest('hex');

const byNumericId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** The winners of round `round`, in the order drawn. `alreadyDrawn` are the winners of earlier rounds. */
export function drawRound(
  seed: string,
  entryId: string,
  round: number,
  winnerCount: number,
  entrants: readonly string[],
  alreadyDrawn: readonly string[] = [],
): string[] {
  const drawn = new Set(alreadyDrawn);
  const pool = [...new Set(entrants)].filter((id) => !drawn.has(id)).sort(byNumericId);
  const winners: string[] = [];
  const n = Math.min(winnerCount, pool.length);
  for (let j = 0; j < n; j++) {
    const h = createHmac('sha256', seed).update(`${entryId}:${round}:${j}`, 'utf8').digest();
    const x = h.readBigUInt64BE(0);
    const [winner] = pool.splice(Number(x % BigInt(pool.length)), 1);
    winners.push(winner!);
  }
  return winners;
}

/** Every round in order, each drawing from what earlier rounds left: what a verifier repeats. */
export function drawRounds(seed: string, entryId: string, rounds: number, winnerCount: number, entrants: readonly string[]): string[][] {
  const all: string[][] = [];
  for (let r = 1; r <= rounds; r++) all.push(drawRound(seed, entryId, r, winnerCount, entrants, all.flat()));
  return all;
}
