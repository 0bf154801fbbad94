/**
 * Repeats every round of a giveaway's draw from the giveaway's record alone
 * (behaviour §12 and §13), as the API answers it:
 *
 *   npm run verify-draw -- <giveaway.json> [--participants <entrants file>]
 *   GUILD_MODULES_TOKEN=<token> npm run verify-draw -- --url <service URL> --guild <guild_id> --giveaway <entry_id>
 *
 * The file holds `GET /modules/giveaways/entries/{entry_id}`'s answer,
 * envelope or not; with `--url` the giveaway is read from the service with
 * the service token or a guild key, and its entrants page by page from
 * `/participants`. A record of more than 1000 entrants does not list them
 * (`participants` null): `--participants` names a file of the entrant IDs
 * (whitespace, commas or a JSON array between them, or saved `/participants`
 * answers one per line). It checks the list against `participant_count`
 * and `participants_hash`, the seed against `seed_hash`,
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
import { MAX_REROLLS, drawRounds, entrantsHash, seedHash } from './draw.js';
import { GiveawayRecord } from './schemas.js';
import { built } from '#shared/built.js';

/** What the check reads of a giveaway's record. */
const Drawn = /* @__PURE__ */ z.pick(GiveawayRecord, {
  entry_id: true,
  status: true,
  winner_count: true,
  participants: true,
  winners: true,
  seed_hash: true,
  seed: true,
  rounds: true,
});
/** Records saved before the count and the hash were checked lack them: they are checked when present. */
const Published = /* @__PURE__ */ built(() =>
  z.extend(Drawn, { participant_count: z.optional(z.int()), participants_hash: z.optional(z.nullable(z.string())) }),
);
export type PublishedGiveaway = z.infer<typeof Published>;

export const TOKEN_VARIABLE = 'GUILD_MODULES_TOKEN';
const USAGE = /* @__PURE__ */ built(() =>
  [
    'usage: npm run verify-draw -- <giveaway.json> [--participants <entrants file>]',
    `       ${TOKEN_VARIABLE}=<token> npm run verify-draw -- --url <service URL> --guild <guild_id> --giveaway <entry_id>`,
  ].join('\n'),
);

export interface Verdict {
  /** 0 everything matches, 1 a mismatch, 2 nothing could be checked. */
  code: 0 | 1 | 2;
  lines: string[];
}

const listed = (ids: readonly string[]) => (ids.length ? ids.join(',') : '(none)');
const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * Checks a published giveaway: the entrant list (the record's, or `paged`
 * when given) against the count and hash, the seed against its hash, every
 * round against the draw, `winners` against the latest round.
 */
export function checkDraw(g: PublishedGiveaway, paged: readonly string[] | null = null): Verdict {
  if (g.seed === null)
    return { code: 2, lines: [`Giveaway ${g.entry_id} is ${g.status}: its seed is published at the end, so there is nothing to check yet.`] };
  if (g.rounds.length === 0) return { code: 2, lines: [`Giveaway ${g.entry_id} has no round drawn yet.`] };
  if (paged === null && g.participants === null)
    return {
      code: 2,
      lines: [
        `Giveaway ${g.entry_id} has ${g.participant_count} entrants, more than its record lists: give them with --participants <file>, or read them with --url.`,
      ],
    };
  const entrants = paged ? [...paged] : g.participants!.split(',').filter(Boolean);
  const notAnId = entrants.find((id) => !/^[0-9]{1,20}$/.test(id));
  if (notAnId !== undefined)
    return {
      code: 2,
      lines: [`${paged ? 'The entrant list' : "Field 'participants'"} holds '${notAnId.slice(0, 40)}', which is not a member ID; it must be member IDs.`],
    };
  const lines: string[] = [];
  let pass = true;
  const say = (ok: boolean, line: string) => {
    pass &&= ok;
    lines.push(`${ok ? 'pass' : 'FAIL'}  ${line}`);
  };
  if (g.participant_count !== undefined)
    say(
      entrants.length === g.participant_count,
      `entrants: ${entrants.length} listed${entrants.length === g.participant_count ? ', participant_count' : `, but participant_count is ${g.participant_count}`}`,
    );
  if (g.participants_hash) {
    const hash = entrantsHash(entrants);
    say(
      hash === g.participants_hash,
      hash === g.participants_hash
        ? 'entrants: their hash is participants_hash'
        : `entrants: their hash is ${hash}, not participants_hash ${g.participants_hash}`,
    );
  }
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

/** The entrant IDs in a file: whitespace, commas or JSON between them, or saved `/participants` answers. */
function entrantsIn(text: string): string[] {
  return text.match(/"?[0-9]{1,20}"?/g)?.map((id) => id.replaceAll('"', '')) ?? [];
}

type Read = { giveaway: PublishedGiveaway; entrants: string[] | null } | string;

const failed = (response: Response, error: unknown) =>
  `The service answered ${response.status}: ${(error as { error?: { message?: string } } | undefined)?.error?.message ?? response.statusText}`;

/** Reads the giveaway named on the command line, from a file or the service, with its entrants when they are given or paged. */
async function readGiveaway(argv: string[], env: NodeJS.ProcessEnv): Promise<Read> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { url: { type: 'string' }, guild: { type: 'string' }, giveaway: { type: 'string' }, participants: { type: 'string' } },
    });
  } catch (error) {
    return `${(error as Error).message}\n${USAGE}`;
  }
  const { values, positionals } = args;
  if (values.url === undefined) {
    if (positionals.length !== 1) return USAGE;
    const texts: string[] = [];
    for (const path of [positionals[0]!, ...(values.participants === undefined ? [] : [values.participants])]) {
      try {
        texts.push(readFileSync(path, 'utf8'));
      } catch (error) {
        return `Cannot read ${path}: ${(error as Error).message}`;
      }
    }
    let giveaway: PublishedGiveaway | string;
    try {
      giveaway = publishedGiveaway(JSON.parse(texts[0]!));
    } catch {
      return `${positionals[0]} is not JSON.`;
    }
    if (typeof giveaway === 'string') return giveaway;
    // A saved /participants answer names the page fields too: only the IDs of `participants` count.
    const listed = texts[1]?.replace(/"(page|page_size|total|next_cursor)"\s*:\s*("[^"]*"|[0-9]+|null)/g, '');
    return { giveaway, entrants: listed === undefined ? null : entrantsIn(listed) };
  }
  if (positionals.length || !values.guild || !values.giveaway) return USAGE;
  const token = env[TOKEN_VARIABLE];
  if (!token) return `Set ${TOKEN_VARIABLE} to the service token or a guild API key of guild ${values.guild}.`;
  const client = createGuildModulesClient({ baseUrl: values.url, token });
  try {
    const path = { entry_id: values.giveaway };
    const { data, error, response } = await client.GET('/modules/giveaways/entries/{entry_id}', { params: { path, query: { guild_id: values.guild } } });
    if (error || !data) return failed(response, error);
    const giveaway = publishedGiveaway(data);
    if (typeof giveaway === 'string') return giveaway;
    // Every entrant, a thousand a page, each page after the last by its signed cursor.
    const entrants: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.GET('/modules/giveaways/entries/{entry_id}/participants', {
        params: { path, query: { guild_id: values.guild, page_size: 1000, ...(cursor ? { cursor } : {}) } },
      });
      if (page.error || !page.data) return failed(page.response, page.error);
      entrants.push(...page.data.data.participants);
      cursor = page.data.data.next_cursor ?? undefined;
    } while (cursor);
    return { giveaway, entrants };
  } catch (error) {
    return `Cannot reach ${values.url}: ${(error as Error).message}`;
  }
}

/** The whole command: reads the record and checks it. */
export async function verifyDraw(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<Verdict> {
  const read = await readGiveaway(argv, env);
  return typeof read === 'string' ? { code: 2, lines: [read] } : checkDraw(read.giveaway, read.entrants);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { code, lines } = await verifyDraw(process.argv.slice(2));
  (code === 2 ? console.error : console.log)(lines.join('\n'));
  process.exitCode = code;
}
