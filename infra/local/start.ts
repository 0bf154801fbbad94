import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { TABLE } from '#shared/db/table.js';
import { resetDb } from '#shared/db/client.js';
import { mintSecret } from '#shared/ids.js';
import { parseGuildKeyRate } from '../config.js';
import { hostPort } from '#functions/socials/reach/client.js';
import { createApiServer } from './http-server.js';
import { type LocalJobs, startLocalJobs } from './jobs/runner.js';
import type { RunningBot } from '../../clients/bot/bot.js';
import { startSandbox } from './sandbox/server.js';
import type { OAuth2Application } from './sandbox/oauth2.js';
import { DASHBOARD_CALLBACK_PATH } from '#shared/platform/oauth2-config.js';
import { sourceUrls } from './sandbox/sources/routes.js';
import { startIndexLagProxy } from './index-lag.js';
import { printReadable } from './console-log.js';
import { setLogOutput } from '#shared/observe/log.js';
import { setMetricOutput } from '#shared/observe/emit.js';
import { type EmbeddedDynamo, ensureTable, parseEmbeddedDynamo, startEmbeddedDynamo } from './table.js';

/** How local mode is started; every field has the default of behaviour §10. */
export interface LocalOptions {
  port?: number;
  host?: string;
  /** The sandbox platform's port (0: any free port). */
  sandboxPort?: number;
  /** Where the table and the generated secrets live; null keeps everything in memory (tests). */
  dataDir?: string | null;
  serviceToken?: string;
  /** The key of the cursors' HMAC (shared/db/cursor.ts); kept in DATA_DIR (or in memory) when not given. */
  cursorSecret?: string;
  platformApiBaseUrl?: string;
  platformBotToken?: string;
  /**
   * The dashboard's OAuth2 application on the platform (CONTRACT 19). With
   * the sandbox: the client ID it registers (default its bot's user ID) and
   * the secret (default generated and kept in DATA_DIR). Against a real
   * platform: the registered application's, passed on to the service.
   */
  platformClientId?: string;
  platformClientSecret?: string;
  dynamodbEndpoint?: string;
  /**
   * Which embedded table runs when no `dynamodbEndpoint` is given: dynalite
   * (in process, no Java) or Amazon's DynamoDB Local (needs `java`)
   * (default `LOCAL_DYNAMODB`, else dynalite).
   */
  embeddedDynamo?: EmbeddedDynamo;
  tableName?: string;
  /** Run the job queues and schedules in process (default true). */
  jobs?: boolean;
  /**
   * Make index queries lag by this many milliseconds, as DynamoDB's global
   * secondary indexes do on AWS (default `LOCAL_INDEX_LAG_MS`, else 0; see
   * index-lag.ts).
   */
  indexLagMs?: number;
  /** Requests a second each guild API key may make, bursts of twice that (default `GUILD_KEY_RATE`, else 10). */
  guildKeyRate?: number;
  /** Print each log event as a readable line (default true; tests listen with `onLog` instead). */
  printLogs?: boolean;
  /**
   * Run the reference bot (clients/bot) in process, connected to the platform
   * (the sandbox's gateway, or the configured platform's) and to this service
   * (default false; `npm start` turns it on).
   */
  bot?: boolean;
  /** Where the bot's line per event goes (default stdout). */
  botLog?: (line: string) => void;
  /** The bot's time limit for one attempt at a service call (default its own); tests shorten it to cut an attempt off. */
  botAttemptTimeoutMs?: number;
  /** How long the bot believes a guild's module states (default its own, 60 s); tests that enable a module and act at once set 0. */
  botModuleStateTtlMs?: number;
}

export interface LocalService {
  url: string;
  /** The sandbox platform's API base (ends in /api/v10), or null when a real platform is configured. */
  sandboxUrl: string | null;
  /** The sandbox gateway's WebSocket URL, or null when a real platform is configured. */
  sandboxGatewayUrl: string | null;
  /** The bot token sent to the platform (with the sandbox: the one its gateway accepts). */
  platformBotToken: string;
  /** The OAuth2 client ID the service signs in with (`PLATFORM_CLIENT_ID`), or null when none is configured. */
  platformClientId: string | null;
  /** The redirect URIs the sandbox accepts for it (the service's `/dashboard/callback`, with and without `/v1`); empty against a real platform. */
  oauth2RedirectUris: string[];
  serviceToken: string;
  dataDir: string | null;
  /** The in-process job queues and schedules, or null when started without them. */
  jobs: LocalJobs | null;
  /** The reference bot, connected and ready, or null when started without it. */
  bot: RunningBot | null;
  stop(): Promise<void>;
}

/** A secret of the deployment (the service token, the cursor secret): given, or kept in DATA_DIR from an earlier start, or generated now (and kept). */
function keptSecret(name: string, given: string | undefined, dataDir: string | null): string {
  if (given) return given;
  if (!dataDir) return mintSecret();
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = mintSecret();
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The variables local mode set itself (so a restart in one process points them at the new servers). */
const sandboxSourceEnv = new Set<string>();
/** `SOURCE_ALLOWED_HOSTS` as the operator set it, before local mode added its sandbox. */
let operatorAllowedHosts = '';

/** How long the reference bot may take to connect and be READY. */
const BOT_READY_TIMEOUT_MS = 15_000;

/** How long a failed job message stays hidden before local mode delivers it again. */
const LOCAL_VISIBILITY_TIMEOUT_MS = 3000;

async function close(server: Server): Promise<void> {
  server.closeAllConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Starts local mode: the embedded table (unless DYNAMODB_ENDPOINT;
 * dynalite, or DynamoDB Local with LOCAL_DYNAMODB=dynamodb-local), the
 * sandbox platform (unless PLATFORM_API_BASE_URL), and the API server over
 * the same route tables CDK deploys. Handlers read their configuration from
 * the environment, as in Lambda, so it is set here.
 */
export async function startLocal(options: LocalOptions = {}): Promise<LocalService> {
  // Read first, so a bad value stops the start before anything is opened.
  const guildKeyRate = parseGuildKeyRate(options.guildKeyRate ?? process.env.GUILD_KEY_RATE);
  const embeddedDynamo = options.embeddedDynamo ?? parseEmbeddedDynamo(process.env.LOCAL_DYNAMODB);
  // One readable line an event, and no EMF lines (they would drown the console; tests count metrics with onMetric).
  setLogOutput(options.printLogs === false ? null : printReadable);
  setMetricOutput(null);
  const dataDir = options.dataDir === undefined ? '.data' : options.dataDir;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const closers: (() => Promise<void>)[] = [];

  let endpoint = options.dynamodbEndpoint;
  if (!endpoint) {
    const dynamo = await startEmbeddedDynamo(dataDir, embeddedDynamo);
    endpoint = dynamo.endpoint;
    closers.push(() => dynamo.close());
  }
  const tableName = options.tableName ?? TABLE.defaultName;
  await ensureTable(endpoint, tableName);
  const indexLagMs = options.indexLagMs ?? Number(process.env.LOCAL_INDEX_LAG_MS || 0);
  if (indexLagMs > 0) {
    const proxy = await startIndexLagProxy(endpoint, indexLagMs);
    endpoint = proxy.endpoint;
    closers.unshift(() => close(proxy.server));
  }

  let platformUrl = options.platformApiBaseUrl;
  let sandboxUrl: string | null = null;
  let sandboxGatewayUrl: string | null = null;
  let platformBotToken = options.platformBotToken ?? '';
  let sandboxApplication: OAuth2Application | null = null;
  // Against a real platform, the registered application's ID and secret as the operator gave them (or as the environment has them).
  for (const name of ['PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET']) {
    // What an earlier start in this process set for its sandbox is not the operator's.
    if (sandboxSourceEnv.delete(name)) delete process.env[name];
  }
  let oauth2: Record<string, string> = Object.fromEntries(
    Object.entries({ PLATFORM_CLIENT_ID: options.platformClientId, PLATFORM_CLIENT_SECRET: options.platformClientSecret }).filter(([, v]) => v),
  ) as Record<string, string>;
  if (!platformUrl) {
    // The sandbox's bot token: PLATFORM_BOT_TOKEN when set, else kept in DATA_DIR (CONTRACT 14).
    platformBotToken = keptSecret('sandbox-bot-token', options.platformBotToken, dataDir);
    // The sandbox registers the service as its OAuth2 application; the secret, like the bot token, is kept in DATA_DIR.
    const clientSecret = keptSecret('sandbox-client-secret', options.platformClientSecret, dataDir);
    const sandbox = await startSandbox({
      port: options.sandboxPort ?? 0,
      host: options.host ?? '127.0.0.1',
      botToken: platformBotToken,
      dataDir,
      oauth2: { clientId: options.platformClientId, clientSecret },
    });
    sandboxApplication = sandbox.application;
    oauth2 = { PLATFORM_CLIENT_ID: sandbox.application.client_id, PLATFORM_CLIENT_SECRET: clientSecret };
    for (const name of Object.keys(oauth2)) sandboxSourceEnv.add(name);
    platformUrl = sandboxUrl = sandbox.url;
    sandboxGatewayUrl = sandbox.gatewayUrl;
    closers.push(() => sandbox.close());
    // The socials sources a user did not configure are the sandbox's (behaviour §10).
    for (const [name, value] of Object.entries(sourceUrls(sandbox.origin))) {
      if (!process.env[name] || sandboxSourceEnv.has(name)) {
        process.env[name] = value;
        sandboxSourceEnv.add(name);
      }
    }
    // Sources on loopback are fetched only where named (behaviour §13): local mode names its sandbox's.
    if (!sandboxSourceEnv.has('SOURCE_ALLOWED_HOSTS')) operatorAllowedHosts = process.env.SOURCE_ALLOWED_HOSTS ?? '';
    process.env.SOURCE_ALLOWED_HOSTS = [operatorAllowedHosts, hostPort(new URL(sandbox.origin))].filter(Boolean).join(',');
    sandboxSourceEnv.add('SOURCE_ALLOWED_HOSTS');
  }

  const serviceToken = keptSecret('service-token', options.serviceToken, dataDir);
  Object.assign(process.env, {
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    AWS_REGION: process.env.AWS_REGION ?? 'local',
    PLATFORM_API_BASE_URL: platformUrl,
    PLATFORM_BOT_TOKEN: platformBotToken,
    ...oauth2,
    SERVICE_TOKEN: serviceToken,
    // Cursors the service issued stay good across a restart with the same DATA_DIR.
    CURSOR_SECRET: keptSecret('cursor-secret', options.cursorSecret, dataDir),
    // Local queues are in memory: short leases so work a stopped process had taken is picked up soon after a restart.
    SCHEDULER_LEASE_SECONDS: process.env.SCHEDULER_LEASE_SECONDS ?? '10',
    SCHEDULER_RETRY_SECONDS: String(LOCAL_VISIBILITY_TIMEOUT_MS / 1000),
    SCHEDULER_HORIZON_SECONDS: process.env.SCHEDULER_HORIZON_SECONDS ?? '60',
    // One process runs every consumer: it may post announcements near the platform's whole global rate (50, less a margin for timers firing late).
    SOCIALS_ANNOUNCE_RATE: process.env.SOCIALS_ANNOUNCE_RATE ?? '45',
  });
  resetDb();

  const jobs = options.jobs === false ? null : await startLocalJobs({ visibilityTimeoutMs: LOCAL_VISIBILITY_TIMEOUT_MS });
  if (jobs) closers.unshift(() => jobs.stop());

  const api = createApiServer({ guildKeyRate });
  api.listen(options.port ?? 3000, options.host ?? '127.0.0.1');
  await once(api, 'listening');
  const { port } = api.address() as AddressInfo;
  closers.unshift(() => api.stop());
  // Links the service posts (verification pages) point at local mode unless PUBLIC_BASE_URL says otherwise.
  if (!process.env.PUBLIC_BASE_URL || sandboxSourceEnv.has('PUBLIC_BASE_URL')) {
    process.env.PUBLIC_BASE_URL = `http://${options.host ?? '127.0.0.1'}:${port}`;
    sandboxSourceEnv.add('PUBLIC_BASE_URL');
  }

  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  // The dashboard's callback as the sandbox must accept it: local mode serves every route with and without the stage `/v1`, and PUBLIC_BASE_URL may name either.
  const oauth2RedirectUris = sandboxApplication
    ? [
        ...new Set([
          `${process.env.PUBLIC_BASE_URL!.replace(/\/+$/, '')}${DASHBOARD_CALLBACK_PATH}`,
          `${url}${DASHBOARD_CALLBACK_PATH}`,
          `${url}/v1${DASHBOARD_CALLBACK_PATH}`,
        ]),
      ]
    : [];
  if (sandboxApplication) sandboxApplication.redirect_uris = oauth2RedirectUris;
  let bot: RunningBot | null = null;
  if (options.bot) {
    // Loaded only when asked: the platform libraries cost a start that runs no bot.
    const { startBot } = await import('../../clients/bot/bot.js');
    bot = await startBot({
      platformApiBaseUrl: platformUrl,
      botToken: platformBotToken,
      serviceUrl: url,
      serviceToken,
      log: options.botLog,
      attemptTimeoutMs: options.botAttemptTimeoutMs,
      moduleStateTtlMs: options.botModuleStateTtlMs,
    });
    closers.unshift(() => bot!.stop());
    await Promise.race([
      bot.ready,
      delay(BOT_READY_TIMEOUT_MS).then(() => {
        throw new Error(`The reference bot got no READY from the gateway of ${platformUrl} within ${BOT_READY_TIMEOUT_MS / 1000} s.`);
      }),
    ]);
  }

  return {
    url,
    sandboxUrl,
    sandboxGatewayUrl,
    platformBotToken,
    platformClientId: process.env.PLATFORM_CLIENT_ID || null,
    oauth2RedirectUris,
    serviceToken,
    dataDir,
    jobs,
    bot,
    async stop() {
      for (const closeOne of closers) await closeOne();
      resetDb();
    },
  };
}
