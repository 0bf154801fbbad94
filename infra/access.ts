/**
 * What each module's functions may reach beyond their own log group: the
 * table, the job queues they send to, and the secrets they read. Roles are
 * written from this (infra/constructs/module-runtime.ts), and
 * test/infra/bundle-budget.test.ts checks it against what each built bundle
 * can call, so a grant nothing uses, or a call nothing grants, fails a test.
 * The table is in docs/operations.md ("What each role may do").
 */

/** The access of one route group (a module's functions share one role). */
export interface GroupAccess {
  /**
   * `items`: the item-level actions on the table and its indexes;
   * `probe`: GetItem of the readiness probe's item only (`/readyz`).
   */
  table: 'items' | 'probe';
  /**
   * Jobs whose due work these functions send at once (the scheduler's
   * `scheduleAt`/`requestSoon` of work due before the producer's next run).
   * Work of any other job they only write to the table (`requestLater`),
   * and its producer sends it.
   */
  sends: readonly string[];
  /** Calls the platform: reads the bot token. */
  platform: boolean;
  /** Answers pages with a `next_cursor`: reads the cursor secret. */
  cursors: boolean;
  /** Reads the operator's named secrets (`functionSecretArns`: the socials sources' credentials). */
  namedSecrets: boolean;
  /**
   * Signs members in with the platform's OAuth2 (`platformOAuth2Config`):
   * reads the OAuth2 client secret and gets the client ID. Default false.
   */
  oauth2?: boolean;
}

/** The readiness probe's item: `/readyz` reads it (it need not exist). */
export const PROBE_KEY = { pk: 'HEALTH', sk: 'HEALTH' } as const;

const MODULE: GroupAccess = { table: 'items', sends: [], platform: true, cursors: true, namedSecrets: false };

/** Route group -> what its functions reach. Guild-key management (auth) and parked work's dead-letter queues are granted apart (service-stack.ts). */
export const GROUP_ACCESS: Readonly<Record<string, GroupAccess>> = {
  health: { table: 'probe', sends: [], platform: false, cursors: false, namedSecrets: false },
  auth: { table: 'items', sends: [], platform: false, cursors: false, namedSecrets: false },
  parked: { table: 'items', sends: [], platform: false, cursors: true, namedSecrets: false },
  reactionroles: MODULE,
  polls: { ...MODULE, sends: ['polls.close', 'polls.delete', 'polls.refresh'] },
  socials: { ...MODULE, namedSecrets: true },
  serverstats: { ...MODULE, sends: ['serverstats.counters'] },
  welcoming: { ...MODULE, sends: ['welcoming.timedrole-grant', 'welcoming.timedrole-catchup'] },
  'invite-tracker': MODULE,
  giveaways: { ...MODULE, sends: ['giveaways.end', 'giveaways.refresh'] },
  verifier: MODULE,
  tags: MODULE,
  // Reads the module's settings and records, then the platform (the bot token).
  diagnostics: { table: 'items', sends: [], platform: true, cursors: false, namedSecrets: false },
  // The sign-in alone holds the OAuth2 client secret; the bot token for where the bot is (the bot's own guild list).
  dashboard: { table: 'items', sends: [], platform: true, cursors: false, namedSecrets: false, oauth2: true },
};

/** The access of a route group; a group missing here fails the synth rather than getting a guess. */
export function accessOf(group: string): GroupAccess {
  const access = GROUP_ACCESS[group];
  if (!access) throw new Error(`Route group '${group}' has no entry in infra/access.ts GROUP_ACCESS: say what its functions reach`);
  return access;
}

/** The module of a job (`polls.close` -> `polls`): a job's role may send to the queues of its own module's jobs. */
export const jobModule = (jobId: string): string => jobId.slice(0, jobId.indexOf('.'));
