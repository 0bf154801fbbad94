/**
 * Repeats a giveaway's draw from its published data:
 *
 *   npm run verify-draw -- <seed> <entry_id> <rounds> <winner_count> <entrants file>
 *
 * The entrants file holds the member IDs (the giveaway's `participants`),
 * separated by commas, spaces or new lines. It checks the seed against
 * `seed_hash` when one is given with --hash, and prints the winners of each
 * round 1..rounds (round 1 is the end, then one per reroll).
 */
import { readFileSync } from 'node:fs';
import { drawRounds, seedHash } from './draw.js';

const args = process.argv.slice(2);
const hashAt = args.indexOf('--hash');
const expectedHash = hashAt >= 0 ? args.splice(hashAt, 2)[1] : undefined;
const [seed, entryId, rounds, winnerCount, file] = args;
if (!seed || !entryId || !rounds || !winnerCount || !file || !/^[0-9a-f]{64}$/.test(seed) || !/^[1-9][0-9]*$/.test(rounds) || !/^[1-9][0-9]*$/.test(winnerCount)) {
  console.error('usage: npm run verify-draw -- <seed: 64 hex> <entry_id> <rounds> <winner_count> <entrants file> [--hash <seed_hash>]');
  process.exit(2);
}
if (expectedHash !== undefined) {
  const actual = seedHash(seed);
  if (actual !== expectedHash.toLowerCase()) {
    console.error(`The seed does not match seed_hash: SHA-256 of the seed is ${actual}.`);
    process.exit(1);
  }
  console.log('seed matches seed_hash');
}
const entrants = readFileSync(file, 'utf8').split(/[\s,]+/).filter(Boolean);
const bad = entrants.find((id) => !/^[0-9]{1,20}$/.test(id));
if (bad) {
  console.error(`The entrants file holds '${bad}', which is not a member ID.`);
  process.exit(2);
}
drawRounds(seed, entryId, Number(rounds), Number(winnerCount), entrants).forEach((winners, i) => {
  console.log(`round ${i + 1}: ${winners.length ? winners.join(',') : '(nobody left to draw)'}`);
});
