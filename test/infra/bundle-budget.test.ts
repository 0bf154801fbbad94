import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIZE_BUDGET } from '../../bench/sizes.js';
import { routeGroups, routes } from '#functions/routes.js';
import { accessOf } from '#infra/access.js';
import { buildFunctions } from '#infra/build.js';
import { AUTHORIZER_FILE } from '#infra/bundles.js';
import { jobs } from '#infra/jobs.js';
import { entryOf } from '#shared/http/route.js';

/**
 * What every Lambda bundle may carry, read from esbuild's metafile of one
 * build of all of them with the SDK floor (bench/floor.ts). Not timed: the
 * bench measures time; this keeps the causes out.
 */
const FLOOR_FILE = 'bench/floor.ts';

/** Packages no function uses: the SDK's default credential chain and its clients, Secrets Manager's client. */
const NEVER = [
  '@aws-sdk/client-secrets-manager',
  '@aws-sdk/credential-provider-node',
  '@aws-sdk/credential-provider-ini',
  '@aws-sdk/credential-provider-sso',
  '@aws-sdk/credential-provider-process',
  '@aws-sdk/credential-provider-web-identity',
  '@aws-sdk/credential-provider-http',
  '@aws-sdk/credential-provider-login',
  '@aws-sdk/client-sts',
  '@aws-sdk/nested-clients',
  '@aws-sdk/token-providers',
  '@smithy/credential-provider-imds',
];

/** Zod modules no function runs (JSON Schema both ways, z.compile); see infra/zod-plugins.ts. */
const ZOD_BUILD_TIME = /zod\/v4\/(core\/(compile|json-schema-processors|to-json-schema|json-schema-generator)|classic\/from-json-schema)\.js$/;

/** Built-ins whose ESM import loads far more than it gives (node:http pulls in the HTTP stack and undici). */
const HEAVY_BUILTINS = new Set(['http', 'https', 'http2', 'node:http', 'node:https', 'node:http2']);

const packageOf = (input: string) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1];

let outdir: string;
let metafile: Metafile;
let bundles: { key: string; bytes: number; inputs: string[]; used: string[] }[];
/** Entry (a route's, a job's, the authorizer's) -> its bundle's key. */
let keyOfEntry: (entry: string) => string;
let floorBytes: number;

describe('function bundles', () => {
  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), 'gms-bundle-budget-'));
    const built = await buildFunctions({ routes, jobs, extraFiles: [AUTHORIZER_FILE, FLOOR_FILE], outdir });
    metafile = built.metafile;
    const keyOf = (path: string) => path.split('/').slice(-2, -1)[0]!;
    const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('/index.mjs'));
    const floorKey = built.bundles.get(FLOOR_FILE)!.split(/[\\/]/).pop()!;
    floorBytes = outputs.find(([path]) => keyOf(path) === floorKey)![1].bytes;
    bundles = outputs
      .filter(([path]) => keyOf(path) !== floorKey)
      .map(([path, out]) => ({
        key: keyOf(path),
        bytes: out.bytes,
        inputs: Object.keys(out.inputs),
        used: Object.entries(out.inputs)
          .filter(([, input]) => input.bytesInOutput > 0)
          .map(([input]) => input),
      }));
    keyOfEntry = (entry) => built.bundles.get(entry)!.split(/[\\/]/).pop()!;
  }, 300_000);
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('carry no credential chain, Secrets Manager client or build-time-only Zod module', () => {
    const found = bundles.flatMap((b) =>
      b.inputs
        .filter((input) => NEVER.includes(packageOf(input) ?? '') || (ZOD_BUILD_TIME.test(input) && !input.startsWith('zod-runtime-only:')))
        .map((input) => `${b.key}: ${packageOf(input) ?? input}`),
    );
    expect([...new Set(found)]).toEqual([]);
  });

  it('carry Zod mini only, never classic Zod (about 100 KiB more, and most of a cold start)', () => {
    const found = bundles.filter((b) => b.inputs.some((input) => /zod\/v4\/classic\//.test(input))).map((b) => b.key);
    expect(found).toEqual([]);
  });

  it("leave out the schemas of their module's other routes (each a marked declaration, shared/built.ts)", () => {
    // The claim answer of reaction roles documents 'Entry IDs claimed'; deleting a panel's message never answers it.
    const source = readFileSync(join(outdir, 'reactionroles.check-delete', 'index.mjs'), 'utf8');
    expect(source).toContain('reactionroles');
    expect(source).not.toContain('Entry IDs claimed');
  });

  it('leave out their own success schema, which only the OpenAPI document and the tests read (functions/<module>/answers.ts)', () => {
    // The check's answer documents 'Entry IDs claimed'; the function answers it without building its schema.
    const source = readFileSync(join(outdir, 'reactionroles.check', 'index.mjs'), 'utf8');
    expect(source).toContain('reactionroles');
    expect(source).not.toContain('Entry IDs claimed');
  });

  it("carry of a module's basics (functions/<module>/basics.ts) their own route only, without its success schema", () => {
    expect(
      bundles
        .filter((b) => b.key.startsWith('polls.basics.'))
        .map((b) => b.key)
        .sort(),
    ).toEqual(['deleteSettings', 'getSettings', 'privacyDeleteUserEntries', 'privacyGetUserEntries', 'updateSettings'].map((name) => `polls.basics.${name}`));
    // The privacy delete answers 'forgot them as the owner' and refreshes messages at once (SQS); the settings answer documents 'Seconds a closed poll is kept'.
    const read = (key: string) => readFileSync(join(outdir, key, 'index.mjs'), 'utf8');
    const settings = read('polls.basics.getSettings');
    const privacy = read('polls.basics.privacyDeleteUserEntries');
    expect([
      settings.includes('polls'),
      settings.includes('forgot them as the owner'),
      settings.includes('Seconds a closed poll is kept'),
      privacy.includes('forgot them as the owner'),
    ]).toEqual([true, false, false, true]);
    // Socials keeps no member data: its privacy pair reads no table, whatever its settings routes beside it import.
    const usesTable = (key: string) => bundles.find((b) => b.key === key)!.inputs.some((input) => packageOf(input) === '@aws-sdk/client-dynamodb');
    expect([usesTable('socials.basics.privacyGetUserEntries'), usesTable('socials.basics.getSettings')]).toEqual([false, true]);
  });

  it('carry an SDK client other than DynamoDB only through the scheduler (SQS)', () => {
    const found = bundles.flatMap((b) => {
      const clients = new Set(
        b.inputs.map(packageOf).filter((p): p is string => Boolean(p?.startsWith('@aws-sdk/client-') && p !== '@aws-sdk/client-dynamodb')),
      );
      // Sending due work, or taking replayed work off the dead-letter queues.
      const viaScheduler = b.inputs.some((input) => input.endsWith('shared/scheduler/sender.ts') || input.endsWith('shared/scheduler/dead-letters.ts'));
      return [...clients].filter((client) => !(client === '@aws-sdk/client-sqs' && viaScheduler)).map((client) => `${b.key}: ${client}`);
    });
    expect(found).toEqual([]);
  });

  it('carry the SQS client only where due work is sent at once, and the platform client only where the platform is called or a member is answered', () => {
    // These only write or cancel due work minutes away (shared/scheduler/table-only.ts); the producer sends it.
    const tableOnly = [
      'parked.list',
      'socials.create-entry',
      'serverstats.create-counter',
      'polls.basics.deleteSettings',
      'welcoming.basics.deleteSettings',
      'giveaways.delete-entry',
    ];
    const withQueue = bundles
      .filter((b) => tableOnly.includes(b.key) && b.inputs.some((input) => packageOf(input) === '@aws-sdk/client-sqs'))
      .map((b) => b.key);
    expect(withQueue).toEqual([]);
    // A vote sends its refresh at once.
    expect(bundles.find((b) => b.key === 'polls.vote')!.inputs.some((input) => packageOf(input) === '@aws-sdk/client-sqs')).toBe(true);
    const settings = readFileSync(join(outdir, 'polls.basics.getSettings', 'index.mjs'), 'utf8');
    const vote = readFileSync(join(outdir, 'polls.vote', 'index.mjs'), 'utf8');
    const joinCheck = readFileSync(join(outdir, 'invite-tracker.join-check', 'index.mjs'), 'utf8');
    // Only endpoints that answer members (answerFailures) carry the interaction webhook; the vanity URL is read by joins only.
    expect([settings.includes('/webhooks/'), vote.includes('/webhooks/'), settings.includes('/vanity-url'), joinCheck.includes('/vanity-url')]).toEqual([
      false,
      true,
      false,
      true,
    ]);
  });

  it('reach the bot token, the cursor key, source credentials, the OAuth2 client secret and the job queues where their role grants them, and nowhere else (infra/access.ts)', () => {
    /** What a bundle can reach, from the code it carries. */
    const reach = (entry: string) => {
      const key = keyOfEntry(entry);
      const used = (file: string) => bundles.find((b) => b.key === key)!.used.some((input) => input.endsWith(file));
      return {
        platform: used('shared/platform/transport.ts'),
        // The cursor key is read in one function, kept only where a page's cursor is issued or checked.
        cursors: readFileSync(join(outdir, key, 'index.mjs'), 'utf8').includes('No cursor secret'),
        namedSecrets: used('functions/socials/reach/sources.ts'),
        sends: used('shared/scheduler/sender.ts'),
        oauth2: used('shared/platform/oauth2-config.ts'),
      };
    };
    const any = (entries: string[], what: keyof ReturnType<typeof reach>) => entries.some((entry) => reach(entry)[what]);
    const mismatches: string[] = [];
    const compare = (who: string, granted: Record<keyof ReturnType<typeof reach>, boolean>, entries: string[]) => {
      for (const what of ['platform', 'cursors', 'namedSecrets', 'sends', 'oauth2'] as const) {
        if (granted[what] !== any(entries, what)) mismatches.push(`${who}: ${what} granted ${granted[what]}, reached ${!granted[what]}`);
      }
    };
    for (const [group, groupRoutes] of Object.entries(routeGroups)) {
      const access = accessOf(group);
      compare(group, { ...access, sends: access.sends.length > 0, oauth2: access.oauth2 ?? false }, groupRoutes.map(entryOf));
    }
    // A job's role may send to its module's queues (its producer sends its own) and reads no cursor key.
    for (const job of jobs)
      compare(job.id, { platform: job.platform ?? false, cursors: false, namedSecrets: job.namedSecrets ?? false, sends: true, oauth2: false }, [job.file]);
    // The authorizer decides the dashboard's sessions (with the OAuth2 client) wherever the dashboard is deployed.
    const signsIn = Object.keys(routeGroups).some((group) => accessOf(group).oauth2 ?? false);
    // And reads, every 5 minutes a session, where the bot is with the bot token (shared/auth/oauth-client.ts).
    compare('authorizer', { platform: signsIn, cursors: false, namedSecrets: false, sends: false, oauth2: signsIn }, [AUTHORIZER_FILE]);
    expect(mismatches).toEqual([]);
  });

  it("carry of package.json only the User-Agent's URL and version, and no entity checker the feed parser never reaches", () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { homepage: string; version: string; description: string };
    const source = readFileSync(join(outdir, 'polls.vote', 'index.mjs'), 'utf8');
    // Booleans, not the bundle itself, in a failure message.
    expect([source.includes(manifest.homepage), source.includes(`"${manifest.version}"`), source.includes(manifest.description)]).toEqual([true, true, false]);
    expect(bundles.filter((b) => b.inputs.some((input) => packageOf(input) === 'is-unsafe')).map((b) => b.key)).toEqual([]);
  });

  it('import no heavy built-in from the project code (node:http and friends)', () => {
    const found = Object.entries(metafile.inputs)
      .filter(([path]) => !path.includes('node_modules') && !path.includes(':'))
      .flatMap(([path, input]) =>
        input.imports
          .filter((i) => HEAVY_BUILTINS.has(i.original ?? i.path) || HEAVY_BUILTINS.has(i.path))
          .map((i) => `${path} imports ${i.original ?? i.path}`),
      );
    expect(found).toEqual([]);
  });

  it(`stay within the size budget over the SDK floor (median + ${SIZE_BUDGET.medianOverFloorKiB} KiB, each + ${SIZE_BUDGET.largestOverFloorKiB} KiB)`, () => {
    const limit = floorBytes + SIZE_BUDGET.largestOverFloorKiB * 1024;
    const over = bundles.filter((b) => b.bytes > limit).map((b) => `${b.key}: ${(b.bytes / 1024).toFixed(1)} KiB`);
    expect(over).toEqual([]);
    const sorted = bundles.map((b) => b.bytes).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]! - floorBytes).toBeLessThanOrEqual(SIZE_BUDGET.medianOverFloorKiB * 1024);
  });
});
