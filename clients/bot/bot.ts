/**
 * The reference bot: connects to the platform's gateway with
 * `@discordjs/core` over `@discordjs/ws` and `@discordjs/rest` (the gateway
 * URL from GET /gateway/bot), plans each dispatch with the event table
 * (events.ts), sends the calls to the service (service.ts), answers
 * interactions as interactions.ts says, and logs one line per event.
 *
 * A dispatch the table cannot read is logged and skipped; nothing a
 * dispatch carries stops the bot.
 */
import { type API, Client, GatewayIntentBits, MessageFlags } from '@discordjs/core';
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { type APIInteraction, type GatewayDispatchPayload, type GatewayReadyDispatchData, Routes } from 'discord-api-types/v10';
import { COMMANDS, handleCommand } from './commands.js';
import { type Dispatch, type Plan, planDispatch } from './events.js';
import { BotMemory } from './memory.js';
import { ModuleStates, moduleOfPath, saysDisabled } from './modules.js';
import { StatsBatches } from './batches.js';
import type { RetryPolicy } from './retry.js';
import { type CallResult, createReader, createService, type Read, type SendCall } from './service.js';

export interface BotConfig {
  /** The platform's REST base, ending in `/api/v10` (`https://discord.com/api/v10`, or the sandbox's). */
  platformApiBaseUrl: string;
  botToken: string;
  /** The service's base URL (`http://127.0.0.1:3000`, or the deployed stage `https://<api>/v1`). */
  serviceUrl: string;
  serviceToken: string;
  retry?: RetryPolicy;
  /** How long one attempt at a service call may take; default the service's longest (service.ts). Tests shorten it to cut an attempt off. */
  attemptTimeoutMs?: number;
  /** Where the per-event lines go; default stdout. */
  log?: (line: string) => void;
  /** How long the bot believes a guild's module states before asking the service again; default 60 s (modules.ts). */
  moduleStateTtlMs?: number;
  /** How long a guild's statistics recordings are held before they are sent as a batch; default 10 s (batches.ts). Tests shorten it. */
  statsFlushMs?: number;
}

/** The gateway intents the event table needs (members and presences are privileged). */
export const INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildInvites |
  GatewayIntentBits.GuildVoiceStates |
  GatewayIntentBits.GuildPresences |
  GatewayIntentBits.GuildMessages |
  GatewayIntentBits.GuildMessageReactions |
  GatewayIntentBits.GuildMessagePolls |
  GatewayIntentBits.DirectMessages;

/** The statuses for which the service does not answer the member itself (shape and credential errors: the bot's to fix). */
const SERVICE_LEAVES_UNANSWERED = new Set([400, 401, 405, 413]);

export interface RunningBot {
  /** Settles once the gateway session is ready (READY received). */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** `PLATFORM_API_BASE_URL` as `@discordjs/rest` takes it: the API root and the version. */
export function restOptionsOf(baseUrl: string): { api: string; version: string } {
  const trimmed = baseUrl.replace(/\/+$/, '');
  const match = /^(.*)\/v(\d+)$/.exec(trimmed);
  return match ? { api: match[1]!, version: match[2]! } : { api: trimmed, version: '10' };
}

/** What the member reads when the service could not take their interaction. */
export function memberError(results: CallResult[]): string | null {
  const failed = results.find((r) => r.status === null || r.status >= 400);
  if (!failed) return null;
  if (failed.status === null || failed.status >= 500) {
    return 'The service that handles this is not reachable right now, so nothing changed. Please try again in a minute.';
  }
  return `Nothing changed: ${failed.error ?? `the service answered ${failed.status}`}`;
}

/** What {@link handleDispatch} works with. */
export interface DispatchDeps {
  memory: BotMemory;
  send: SendCall;
  api: Pick<API, 'interactions'>;
  /** The guilds' module states: a dispatch's calls go only to the modules its guild enabled (modules.ts). */
  modules: ModuleStates;
  read: Read;
}

/**
 * How much a line matters: `error` when a call never reached the service or
 * it failed (5xx), `warn` when it refused a call for another reason than the
 * module being off, else `info`. A refusal the bot expects (a poll vote on a
 * message that holds no poll) is still a `warn`: rare once only enabled
 * modules are called.
 */
function levelOf(results: CallResult[]): 'info' | 'warn' | 'error' {
  if (results.some((r) => r.status === null || r.status >= 500)) return 'error';
  return results.some((r) => r.status !== null && r.status >= 400 && !saysDisabled(r.status, r.errorName ?? null)) ? 'warn' : 'info';
}

/**
 * Handles one dispatch end to end; answers the log line's fields, or null
 * when the dispatch made no call (nothing for the log). Exported for the
 * tests, which drive it with payload fixtures and a fake service.
 */
export async function handleDispatch(payload: Dispatch, deps: DispatchDeps): Promise<Record<string, unknown> | null> {
  const started = performance.now();
  if (payload.t === 'INTERACTION_CREATE' && payload.d && typeof payload.d === 'object') {
    const handled = handleCommand(payload.d as APIInteraction, deps);
    if (handled) {
      const line = await handled;
      if (line) line.ms = Math.round(performance.now() - started);
      return line && { level: levelOf((line.calls as CallResult[] | undefined) ?? []), ...line };
    }
  }
  const posted = payload.t === 'MESSAGE_CREATE' ? (payload.d as { guild_id?: string; author?: { id?: string } } | null) : null;
  if (posted?.guild_id && posted.author?.id === deps.memory.botUserId) deps.modules.forget(posted.guild_id);
  let plan: Plan | null;
  try {
    plan = planDispatch(payload, deps.memory);
  } catch (error) {
    return { event: payload.t, skipped: `malformed dispatch: ${(error as Error).message}` };
  }
  if (!plan) return null;
  // A member's click is always carried to the service, which answers them (a module off included); other events go to enabled modules only.
  if (!plan.interaction && plan.guildId) {
    const guildId = plan.guildId;
    const wanted = await Promise.all(plan.calls.map((c) => deps.modules.enabled(guildId, moduleOfPath(c.path) ?? '')));
    plan = { ...plan, calls: plan.calls.filter((_, i) => wanted[i]) };
    if (plan.calls.length === 0) return null;
  }
  const line: Record<string, unknown> = { event: payload.t, guild: plan.guildId };
  if (plan.interaction) line.module = plan.interaction.module;
  const interaction = plan.interaction;
  // The service answers through the interaction webhook: the interaction is acknowledged first (a deferred update shows nothing).
  if (interaction?.answeredBy === 'followup') {
    await deps.api.interactions.deferMessageUpdate(interaction.id, interaction.token).catch((error: Error) => {
      line.ack_error = error.message;
    });
  }
  const results: CallResult[] = [];
  for (const call of plan.calls) {
    const result = await deps.send(call);
    results.push(result);
    const module = moduleOfPath(call.path);
    if (plan.guildId && module && saysDisabled(result.status, result.errorName ?? null)) deps.modules.markDisabled(plan.guildId, module);
  }
  line.level = levelOf(results);
  line.calls = results.map((r) => ({ operation: r.operation, status: r.status, ...(r.attempts > 1 ? { attempts: r.attempts } : {}) }));

  if (interaction) {
    // Tell the member what went wrong only where the service has not: it answers refusals itself through the webhook (followup rows),
    // never a callback row's refusal, and nothing when it could not be reached.
    const unanswered = results.filter(
      (r) => interaction.answeredBy === 'callback' || r.status === null || SERVICE_LEAVES_UNANSWERED.has(r.status) || r.status >= 500,
    );
    const text = memberError(unanswered);
    if (text) {
      const body = { content: text, flags: MessageFlags.Ephemeral };
      const told =
        interaction.answeredBy === 'followup'
          ? deps.api.interactions.followUp(interaction.applicationId, interaction.token, body)
          : deps.api.interactions.reply(interaction.id, interaction.token, body);
      await told.then(
        () => (line.told_member = true),
        (error: Error) => (line.answer_error = error.message),
      );
    }
  }
  line.ms = Math.round(performance.now() - started);
  return { level: line.level, ...line };
}

/**
 * Registers the commands (commands.ts) as the application's global
 * commands, one bulk overwrite: the list on the platform is then exactly
 * the bot's, in every guild it is in or joins, with no request per guild.
 */
export async function registerCommands(rest: REST, applicationId: string): Promise<number> {
  const registered = (await rest.put(Routes.applicationCommands(applicationId), { body: COMMANDS })) as unknown[];
  return registered.length;
}

/** Connects and runs until stopped. */
export async function startBot(config: BotConfig): Promise<RunningBot> {
  const log = config.log ?? ((line: string) => console.log(line));
  const rest = new REST(restOptionsOf(config.platformApiBaseUrl)).setToken(config.botToken);
  const gateway = new WebSocketManager({ token: config.botToken, intents: INTENTS, rest });
  const client = new Client({ rest, gateway });
  const memory = new BotMemory();
  const service = createService({ url: config.serviceUrl, token: config.serviceToken, retry: config.retry, timeoutMs: config.attemptTimeoutMs });
  const read = createReader({ url: config.serviceUrl, token: config.serviceToken });
  const modules = new ModuleStates(async (guildId, module) => {
    const data = await read(`/modules/${module}/status`, { guild_id: guildId });
    return typeof data?.status === 'boolean' ? data.status : null;
  }, config.moduleStateTtlMs);
  const batches = new StatsBatches(service, {
    flushMs: config.statsFlushMs,
    sent: (guildId, records, result) => {
      if (saysDisabled(result.status, result.errorName ?? null)) modules.markDisabled(guildId, 'serverstats');
      const call = { operation: result.operation, status: result.status, ...(result.attempts > 1 ? { attempts: result.attempts } : {}) };
      log(
        JSON.stringify({
          level: levelOf([result]),
          event: 'statistics batch',
          guild: guildId,
          records,
          calls: [call],
          ...(result.error ? { error: result.error } : {}),
        }),
      );
    },
  });
  // Statistics recordings wait for their guild's batch; every other call goes out as it is.
  const send: SendCall = async (call) => batches.take(call) ?? service(call);

  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  gateway.on(WebSocketShardEvents.Dispatch, (payload: GatewayDispatchPayload) => {
    // Ready once the commands are registered (or failed to be), so a member can run them.
    if (payload.t === 'READY') {
      const applicationId = (payload.d as GatewayReadyDispatchData).application.id;
      registerCommands(rest, applicationId)
        .then(
          (count) => log(JSON.stringify({ level: 'info', event: 'commands registered', scope: 'global', count })),
          (error: Error) => log(JSON.stringify({ level: 'error', event: 'commands not registered', error: error.message })),
        )
        .finally(markReady);
    }
    handleDispatch(payload, { memory, send, api: client.api, modules, read }).then(
      (line) => line && log(JSON.stringify(line)),
      (error: Error) => log(JSON.stringify({ level: 'error', event: payload.t, error: error.message })),
    );
  });
  gateway.on(WebSocketShardEvents.Error, (error: Error) => log(JSON.stringify({ level: 'error', event: 'gateway error', error: error.message })));

  await gateway.connect();
  return {
    ready,
    stop: async () => {
      await gateway.destroy();
      // What the last events recorded is sent before the bot goes.
      await batches.stop();
    },
  };
}
