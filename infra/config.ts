/**
 * The operator's knobs of the CDK app, with their defaults. Each can be set in
 * code (stack props) or with `cdk synth -c key=value` / `cdk.json` context.
 */
import type { Node } from 'constructs';
import { parseAllowedHosts } from '#functions/socials/reach/client.js';
import { DEFAULT_STACK_BUDGET } from './plan.js';

/** Settings an operator may change per deployment. */
export interface ServiceSettings {
  /** API stage throttling (behaviour §3.6: 50 requests/s steady, 100 burst). */
  throttleRateLimit: number;
  throttleBurstLimit: number;
  /**
   * Requests a second each guild API key may make (behaviour §13: default 10),
   * with bursts of {@link guildKeyBurst}; guild keys never draw on the
   * stage's limit above, which is the service token's alone.
   */
  guildKeyRate: number;
  /** Base URL of the platform REST API, ending in `/api/v10`. */
  platformApiBaseUrl: string;
  /** Full ARN of an existing secret holding the service token; generated when absent. */
  serviceTokenSecretArn?: string;
  /** Full ARN of an existing secret holding the platform bot token; created for the operator to fill when absent. */
  platformBotTokenSecretArn?: string;
  /** Full ARN of an existing secret keying the HMAC of list cursors; generated when absent. */
  cursorSecretArn?: string;
  /**
   * The platform application's OAuth2 client ID (the dashboard's sign-in,
   * CONTRACT 19): the dashboard's functions get it as `PLATFORM_CLIENT_ID`.
   */
  platformClientId?: string;
  /** Full ARN of an existing secret holding the OAuth2 client secret; created for the operator to fill when absent. */
  platformClientSecretArn?: string;
  /** How long a verification web link (verifier type 3) works, in seconds (`VERIFIER_LINK_SECONDS`, behaviour §13). */
  verifierLinkSeconds: number;
  /** Route function memory in MB. */
  memorySize: number;
  /** Route function timeout in seconds (API Gateway gives up after 29). */
  timeoutSeconds: number;
  /** Days to keep function and access logs. */
  logRetentionDays: number;
  /** Estimated resources above which a route group is split into several nested stacks. */
  stackBudget: number;
  /**
   * Create the account-wide role API Gateway needs to write access and
   * execution logs. Turn off when the account already has one configured.
   */
  apiCloudWatchRole: boolean;
  /**
   * Plain settings every function gets in its environment (not secrets):
   * `PUBLIC_BASE_URL`, `INVITE_BASE_URL`, `SOCIALS_POLL_SECONDS`,
   * `COUNTERS_REFRESH_SECONDS`, the socials source URLs, `STREAM_API_CLIENT_ID`.
   */
  functionEnvironment: Record<string, string>;
  /**
   * Secrets the functions read by name, as full ARNs of existing Secrets
   * Manager secrets, e.g. `{ "STREAM_API_TOKEN": "arn:...", "VIDEO_API_KEY": "arn:..." }`:
   * each becomes `<NAME>_SECRET_ARN` and every function may read it.
   */
  functionSecretArns: Record<string, string>;
  /**
   * Source hosts fetched whatever their address (behaviour §13), as `host:port`
   * (an IPv6 host in brackets): the functions get them as
   * `SOURCE_ALLOWED_HOSTS`. Context: a comma-separated string or a JSON array.
   */
  sourceAllowedHosts: string[];
}

/** The values used when neither props nor context set one (behaviour §3.6 and §10). */
export const DEFAULT_SETTINGS: ServiceSettings = {
  throttleRateLimit: 50,
  throttleBurstLimit: 100,
  guildKeyRate: 10,
  platformApiBaseUrl: 'https://discord.com/api/v10',
  verifierLinkSeconds: 86400,
  memorySize: 256,
  timeoutSeconds: 10,
  logRetentionDays: 30,
  stackBudget: DEFAULT_STACK_BUDGET,
  apiCloudWatchRole: true,
  functionEnvironment: {},
  functionSecretArns: {},
  sourceAllowedHosts: [],
};

/** Each guild API key's burst: twice its rate (behaviour §13). */
export const guildKeyBurst = (rate: number): number => rate * 2;

/**
 * The per-key rate as an operator writes it (`GUILD_KEY_RATE` in local mode,
 * `guildKeyRate` context in the CDK app): a whole number of requests a
 * second, 1 or more; unset or empty is the default. `name` says where it
 * came from in the error.
 */
export function parseGuildKeyRate(raw: unknown, name = 'GUILD_KEY_RATE'): number {
  if (raw === undefined || raw === '') return DEFAULT_SETTINGS.guildKeyRate;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(
      `${name} must be a whole number of requests a second for each guild API key, 1 or more (default ${DEFAULT_SETTINGS.guildKeyRate}), not ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

/** An object of string values given as context (a JSON object in cdk.json, or a JSON string with `-c`). */
function stringMap(node: Node, key: string): Record<string, string> | undefined {
  let raw: unknown = node.tryGetContext(key);
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') raw = JSON.parse(raw);
  if (
    !raw ||
    typeof raw !== 'object' ||
    Array.isArray(raw) ||
    Object.entries(raw).some(([name, value]) => !/^[A-Z][A-Z0-9_]*$/.test(name) || typeof value !== 'string')
  ) {
    throw new Error(`Context ${key} must be an object of UPPER_CASE names to strings`);
  }
  return raw as Record<string, string>;
}

const NUMBER_KEYS = [
  'throttleRateLimit',
  'throttleBurstLimit',
  'memorySize',
  'timeoutSeconds',
  'logRetentionDays',
  'stackBudget',
  'verifierLinkSeconds',
] as const;
const STRING_KEYS = [
  'platformApiBaseUrl',
  'serviceTokenSecretArn',
  'platformBotTokenSecretArn',
  'cursorSecretArn',
  'platformClientId',
  'platformClientSecretArn',
] as const;

/** Settings given as CDK context (strings from `-c`, or JSON values from cdk.json), validated. */
export function settingsFromContext(node: Node): Partial<ServiceSettings> {
  const settings: Partial<ServiceSettings> = {};
  for (const key of NUMBER_KEYS) {
    const raw: unknown = node.tryGetContext(key);
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`Context ${key} must be a positive number, not ${String(raw)}`);
    settings[key] = value;
  }
  for (const key of STRING_KEYS) {
    const raw: unknown = node.tryGetContext(key);
    if (typeof raw === 'string' && raw !== '') settings[key] = raw;
  }
  for (const key of ['functionEnvironment', 'functionSecretArns'] as const) {
    const map = stringMap(node, key);
    if (map) settings[key] = map;
  }
  const rate: unknown = node.tryGetContext('guildKeyRate');
  if (rate !== undefined) settings.guildKeyRate = parseGuildKeyRate(rate, 'Context guildKeyRate');
  const hosts: unknown = node.tryGetContext('sourceAllowedHosts');
  if (hosts !== undefined) settings.sourceAllowedHosts = [...parseAllowedHosts(Array.isArray(hosts) ? hosts.join(',') : String(hosts))];
  const role: unknown = node.tryGetContext('apiCloudWatchRole');
  if (role !== undefined) settings.apiCloudWatchRole = role === true || role === 'true';
  return settings;
}
