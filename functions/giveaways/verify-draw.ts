/**
 * Repeats every round of a giveaway's draw from the giveaway's record alone
 * (behaviour §12 and §13), as the API answers it:
 *
 *   npm run verify-draw -- <giveaway.json>
 *   GUILD_MODULES_TOKEN=<token> npm run verify-draw -- --url <service URL> --guild <guild_id> --giveaway <entry_id>
 *
 * The file holds `GET /modules/giveaways/entries/{entry_id}`'s answer,
 * envelope or not; with `--url` the giveaway is read from the service with
 * the service token or a guild key. It checks the seed against `seed_hash`,
 * then each kept round against the draw (`draw.ts`), printing a pass or
 * fail line for each, and the `winners` field against the latest round.
 * Exit status: 0 everything matches, 1 a mismatch, 2 no record to check.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { createGuildModulesClient } from '../../clients/typescript/index.js';
import { MAX_REROLLS, drawRounds, seedHash } from './draw.js';
import { GiveawayRecord } from './schemas.js';

/** What the check reads of a giveaway's record. */
const Published = z.pick(GiveawayRecord, {
  entry_id: true,
  status: true,
  winner_count: true,
  participants: true,
  winners: true,
  seed_hash: true,
  seed: true,
  rounds: true,
});
export type PublishedGiveaway = z.infer<typeof Published>;

export const TOKEN_VARIABLE = 'GUILD_MODULES_TOKEN';
const USAGE = [
  'usage: npm run verify-draw -- <giveaway.json>',
  `       ${TOKEN_VARIABLE}=<token> npm run verify-draw -- --url <service URL> --guild <guild_id> --giveaway <entry_id>`,
].join('\n');

export interface Verdict {
  /** 0 everything matches, 1 a mismatch, 2 nothing could be checked. */
  code: 0 | 1 | 2;
  lines: string[];
}

const listed = (ids: readonly string[]) => (ids.length ? ids.join(',') : '(none)');
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/** Checks a published giveaway: the seed against its hash, every round against the draw, `winners` against the latest round. */
export function checkDraw(g: PublishedGiveaway): Verdict {
  if (g.seed === null)
    return { code: 2, lines: [`Giveaway ${g.entry_id} is ${g.status}: its seed is published at the end, so there is nothing to check yet.`] };
  if (g.rounds.length === 0) return { code: 2, lines: [`Giveaway ${g.entry_id} has no round drawn yet.`] };
  const entrants = g.participants.split(',').filter(Boolean);
  const notAnId = entrants.find((id) => !/^[0-9]{1,20}$/.test(id));
  if (notAnId !== undefined)
    return { code: 2, lines: [`Field 'participants' holds '${notAnId.slice(0, 40)}', which is not a member ID; it must be member IDs joined by commas.`] };
  const lines: string[] = [];
  let pass = true;
  const say = (ok: boolean, line: string) => {
    pass &&= ok;
    lines.push(`${ok ? 'pass' : 'FAIL'}  ${line}`);
  };
  const hash = seedHash(g.seed);
  say(hash === g.seed_hash, hash === g.seed_hash ? 'seed: its SHA-256 is seed_hash' : `seed: its SHA-256 is ${hash}, not seed_hash ${g.seed_hash}`);
  if (g.rounds.length > MAX_REROLLS + 1) say(false, `rounds: ${g.rounds.length} kept, more than the end and ${MAX_REROLLS} rerolls`);
  const drawn = drawRounds(g.seed, g.entry_id, g.rounds.length, g.winner_count, entrants);
  g.rounds.forEach((kept, i) => {
    const expected = drawn[i]!;
    const problems = [
      ...(kept.round === i + 1 ? [] : [`it is kept as round ${kept.round}, but rounds run 1, 2, 3 ... in order`]),
      ...(sameList(kept.winners, expected) ? [] : [`the record says ${listed(kept.winners)}, the draw gives ${listed(expected)}`]),
    ];
    say(problems.length === 0, `round ${i + 1} (drawn ${kept.drawn_at}): ${problems.length ? problems.join('; ') : listed(expected)}`);
  });
  const latest = g.rounds.at(-1)!.winners;
  say(
    g.winners === latest.join(','),
    g.winners === latest.join(',') ? "winners: the latest round's" : `winners: '${g.winners}' is not the latest round's '${latest.join(',')}'`,
  );
  if (!pass) lines.push('A round also fails when a member was deleted for privacy after the end: the record no longer shows every entrant the draw read.');
  return { code: pass ? 0 : 1, lines };
}

/** The giveaway in a saved answer: the envelope, `data`, or the giveaway itself. */
export function publishedGiveaway(json: unknown): PublishedGiveaway | string {
  let value = json as Record<string, unknown> | null;
  if (value && typeof value === 'object' && value.success === true && value.data) value = value.data as Record<string, unknown>;
  if (value && typeof value === 'object' && value.entry) value = value.entry as Record<string, unknown>;
  const parsed = z.safeParse(Published, value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const what =
    issue.code === 'invalid_type' ? `must be ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}` : 'holds a value the API never answers';
  return `The record is not a giveaway as the API answers it: ${issue.path.length ? `field '${issue.path.join('.')}'` : 'the record'} ${what}.`;
}

/** Reads the giveaway named on the command line, from a file or the service. */
async function readGiveaway(argv: string[], env: NodeJS.ProcessEnv): Promise<PublishedGiveaway | string> {
  let args;
  try {
    args = parseArgs({ args: argv, allowPositionals: true, options: { url: { type: 'string' }, guild: { type: 'string' }, giveaway: { type: 'string' } } });
  } catch (error) {
    return `${(error as Error).message}\n${USAGE}`;
  }
  const { values, positionals } = args;
  if (values.url === undefined) {
    if (positionals.length !== 1) return USAGE;
    let text: string;
    try {
      text = readFileSync(positionals[0]!, 'utf8');
    } catch (error) {
      return `Cannot read ${positionals[0]}: ${(error as Error).message}`;
    }
    try {
      return publishedGiveaway(JSON.parse(text));
    } catch {
      return `${positionals[0]} is not JSON.`;
    }
  }
  if (positionals.length || !values.guild || !values.giveaway) return USAGE;
  const token = env[TOKEN_VARIABLE];
  if (!token) return `Set ${TOKEN_VARIABLE} to the service token or a guild API key of guild ${values.guild}.`;
  const client = createGuildModulesClient({ baseUrl: values.url, token });
  try {
    const { data, error, response } = await client.GET('/modules/giveaways/entries/{entry_id}', {
      params: { path: { entry_id: values.giveaway }, query: { guild_id: values.guild } },
    });
    if (error || !data)
      return `The service answered ${response.status}: ${(error as { error?: { message?: string } } | undefined)?.error?.message ?? response.statusText}`;
    return publishedGiveaway(data);
  } catch (error) {
    return `Cannot reach ${values.url}: ${(error as Error).message}`;
  }
}

/** The whole command: reads the record and checks it. */
export async function verifyDraw(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<Verdict> {
  const giveaway = await readGiveaway(argv, env);
  return typeof giveaway === 'string' ? { code: 2, lines: [giveaway] } : checkDraw(giveaway);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { code, lines } = await verifyDraw(process.argv.slice(2));
  (code === 2 ? console.error : console.log)(lines.join('\n'));
  process.exitCode = code;
}
