/**
 * What the service costs in dollars (`npx tsx bench/cost.ts` alone, or in
 * `npm run bench`; issue 34 part 5): each bot event is sent through local
 * mode as the bot sends it, many times over, and what it used is counted:
 * API requests (through the bot's door, the HTTP API), Lambda invocations
 * (the route, every job message its work queued; the door's authorizer
 * answers from its cache), the Lambda time measured, DynamoDB read and
 * write units (as the table reports them, `ReturnConsumedCapacity`), SQS
 * requests and platform calls. Priced with the AWS list prices written once
 * below, that gives the cost of a million of each event and of a month of a
 * model community. Figures, not tests.
 *
 * Events the reference bot keys through the shared mechanism (a vote, a
 * reaction, a join's two calls, a single recording: CostedEvent.keyed) are
 * measured twice: without a key, as issue 45's figures were, and each call
 * with its `Idempotency-Key`, as the bot sends them (behaviour §16); the
 * model month is priced as the bot sends them.
 *
 * Units: DynamoDB's own rules as dynalite applies them (a read unit per 4
 * KB read strongly consistently, half eventually; a write unit per KB
 * written), plus what dynalite does not report: a conditional write whose
 * condition failed still costs a write unit, and a write naming a global
 * secondary index's key costs one more unit per index (items here are under
 * 1 KB). A transaction (a vote: the voter item and the poll's counts; an
 * enter: the entrant and the giveaway's count) costs 2 write units an item
 * it writes, DynamoDB's prepare and commit, which dynalite does not report
 * either; a cancelled one is counted the same, an upper bound. Lambda time: the route's median time measured here, plus for each
 * table request the round trip AWS adds (LATENCY, in turn, an upper bound),
 * for each platform round the platform's (calls a route makes at once, in
 * flight together, wait once: `countPlatformRounds`; a job consumer's
 * calls each in turn), and a millisecond for each other invocation (job
 * consumers, billed by the millisecond). Each job
 * message is an SQS send, a receive and a delete, and one invocation. Logs:
 * the door's access line of every API request (LOG_BYTES) and the functions' own lines, measured.
 */
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAX_REFRESH_SPACING_MS } from '#functions/polls/lifecycle.js';
import { pollSource } from '#functions/socials/polling.js';
import { jobQueueOf } from '#shared/scheduler/job.js';
import { SPREAD, shardsOf } from '#shared/scheduler/keys.js';
import { db } from '#shared/db/client.js';
import { setMetricOutput } from '#shared/observe/emit.js';
import { jsonLinesTo, setLogOutput } from '#shared/observe/log.js';
import { jobs } from '#infra/jobs.js';
import { ACCESS_LOG_FIELDS, BOT_AUTHORIZER_CACHE } from '#infra/constructs/bot-api.js';
import { DEFAULT_SETTINGS } from '#infra/config.js';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { control, drained, watchers } from './fan-out.js';
import { setUpPoll, voteBody } from './polls.js';
import { PANEL_SETTINGS } from './fixtures.js';
import { isDueIndexPoll, ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, median, printRows } from './table.js';

const SECTION = 'dollars';

/**
 * AWS list prices, us-east-1, on-demand, as published on the AWS pricing
 * pages on 2026-11-27 (DynamoDB's since its November 2024 on-demand cut);
 * free tiers left out. In dollars.
 */
export const PRICES = {
  /** Lambda, arm64: per GB-second, and per request. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /** API Gateway REST API, per request (the first 333 million a month): the guild keys' door. */
  apiRequest: 3.5 / 1e6,
  /** API Gateway HTTP API, per request (the first 300 million a month, each 512 KB a request): the bot's door (infra/constructs/bot-api.ts). */
  httpApiRequest: 1.0 / 1e6,
  /** DynamoDB on-demand: per write request unit, per read request unit. */
  dynamoWrite: 0.625 / 1e6,
  dynamoRead: 0.125 / 1e6,
  /** SQS standard queue, per request (each 64 KB of a message a request). */
  sqsRequest: 0.4 / 1e6,
  /** CloudWatch Logs, per GB ingested (standard class). */
  logsGb: 0.5,
};

/** The bot door's access log line with a request's usual values (its format is the stage's, `ACCESS_LOG_FIELDS`). */
const DOOR_ACCESS_LINE = JSON.stringify({
  ...ACCESS_LOG_FIELDS,
  id: 'Xk3MbiG8oAMEbQg=',
  route: 'POST /modules/polls/entry/vote',
  status: '200',
  ms: '42',
  error: '-',
  authorizerError: '-',
  integrationError: '-',
});

/**
 * Log bytes that go out whatever the code logs: the bot door's access log
 * line of each API request (its format, with usual values). Lambda's START,
 * END and REPORT lines (some 350 bytes an invocation) are no longer written
 * (`systemLogLevelV2: WARN`, service-function.ts); before issue 45 they
 * were, and the REST stage's access line was 450 bytes. What the functions
 * write themselves (a request's or job run's line, their metric lines, any
 * warning) is measured.
 */
const LOG_BYTES = { invocation: 0, apiRequest: Buffer.byteLength(DOOR_ACCESS_LINE) + 1 };

/** Round trips AWS adds to a function's time, in milliseconds (local mode's are a fraction of one): DynamoDB in region, the platform's REST API. */
const LATENCY = { tableMs: 5, platformMs: 100 };
/** Memory of every function (infra/config.ts), in GB. */
const MEMORY_GB = DEFAULT_SETTINGS.memorySize / 1024;
/** Events of each kind sent per figure. */
const EVENTS = Number(process.env.BENCH_COST_EVENTS || 200);

/**
 * The model community: 50,000 members. Events a day of each kind, assumed:
 * most members read, a tenth speak on a given day.
 */
/** The single recording's event: one API call a message. */
const SINGLE_RECORDING = 'a statistics recording (a message sent)';
/** The batched recording's event (POST /modules/serverstats/stats/batch: a message's share of a batch): what the model month prices a message with. */
export const BATCHED_RECORDING = 'a statistics recording, batched (a message sent)';

const COMMUNITY = {
  members: 50_000,
  perDay: {
    /** 5,000 members speaking, 10 messages each, sent by the bot in batches (`BATCHED_RECORDING`). */
    recording: 50_000,
    /** A poll or two a day, 1,000 voters each. */
    'a vote': 1_500,
    /** New members picking roles, members changing them. */
    'a reaction check (reaction roles)': 1_000,
    /** 3% growth a month, with those who leave again. */
    'a join with welcome and invite tracking': 100,
    /** 20 feed items a day announced in 3 channels each. */
    'a feed item announced, per channel': 60,
  } as Record<string, number>,
};

/** How a keyed figure's event is named: its calls as the reference bot sends them (the batch's key is in its own figure). */
const KEYED = 'each call with its Idempotency-Key (as the reference bot sends it)';

/** The model community's messages in the 10 s the bot holds them (CONTRACT §18): 50,000 a day. */
const BATCHED_PER_FLUSH = Math.max(1, Math.round((50_000 * 10) / 86_400));

/** What a run of events used. */
interface Usage {
  apiRequests: number;
  /** Invocations besides the routes': authorizers, job consumers, producers. */
  otherInvocations: number;
  /** Each API request's time, as measured. */
  routeMs: number[];
  tableRequests: number;
  readUnits: number;
  writeUnits: number;
  sqsMessages: number;
  platformCalls: number;
  /** Platform rounds: runs of calls in flight at once (a call made while another is waited on overlaps it), each waited on once. */
  platformRounds: number;
  /** Bytes of the log and metric lines the functions wrote, as Lambda writes them. */
  logBytes: number;
}

const isRead = (command: string) => /Get|Query|Scan/.test(command);
/** Global secondary index keys a write names: each costs a write unit in its index. */
const indexWrites = (input: Record<string, any>) => {
  const items: Record<string, unknown>[] = [
    ...(input.Item ? [input.Item] : []),
    ...Object.values((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>).flatMap((requests) =>
      requests.flatMap((r) => (r.PutRequest ? [r.PutRequest.Item] : [])),
    ),
  ];
  const named = Object.values((input.ExpressionAttributeNames ?? {}) as Record<string, string>).concat(String(input.UpdateExpression ?? ''));
  const inItems = items.reduce((n, item) => n + Object.keys(item).filter((k) => /^gsi\dpk$/.test(k)).length, 0);
  const inUpdate = input.UpdateExpression ? new Set(named.join(' ').match(/gsi\dpk/g) ?? []).size : 0;
  return inItems + inUpdate;
};

/** The actions of a TransactWriteItems, each as the single write it names. */
const transactionWrites = (input: Record<string, any>): Record<string, any>[] =>
  ((input.TransactItems ?? []) as Record<string, any>[]).map((action) => action.Put ?? action.Update ?? action.Delete);
/** Write units of a transaction: 2 an item it writes (items here under 1 KB), and the index writes its items name. */
const transactionUnits = (input: Record<string, any>) => transactionWrites(input).reduce((n, write) => n + 2 + indexWrites(write), 0);

/** What the table was asked for: requests, and their read and write units as AWS bills them. */
export interface TableUse {
  tableRequests: number;
  readUnits: number;
  writeUnits: number;
}

/**
 * Counts every table request into `into()` (read at each request, so a
 * caller may start afresh by replacing it) until the function it answers is
 * called: units as the table reports them, plus what local mode's table does
 * not report (index writes, a transaction's, a refused condition's).
 */
export function countTableUse(into: () => TableUse, name: string): () => void {
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, any>;
      // The producers' polls of the due index: local mode runs them every second, AWS every minute (priced apart).
      if (isDueIndexPoll(input)) return next(args);
      const read = isRead(String(context.commandName));
      into().tableRequests++;
      // A transaction's units are counted from what it writes, whether it goes through or not (local mode's table reports none for one cancelled, nor any index writes).
      if (input.TransactItems) {
        into().writeUnits += transactionUnits(input);
        return next(args);
      }
      if (!read) into().writeUnits += indexWrites(input);
      input.ReturnConsumedCapacity = 'TOTAL';
      try {
        const out = await next(args);
        const consumed = (out.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
        const units = [consumed ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
        if (read) into().readUnits += units;
        else into().writeUnits += units;
        return out;
      } catch (error) {
        // A write whose condition failed consumed a unit all the same.
        if (!read && (error as { name?: string }).name === 'ConditionalCheckFailedException') into().writeUnits += 1;
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return () => void db().middlewareStack.remove(name);
}

/** Counts what the service uses from now until `take()`: table units, queue messages, platform calls. */
function meter(service: LocalService) {
  const usage = (): Usage => ({
    apiRequests: 0,
    otherInvocations: 0,
    routeMs: [],
    tableRequests: 0,
    readUnits: 0,
    writeUnits: 0,
    sqsMessages: 0,
    platformCalls: 0,
    platformRounds: 0,
    logBytes: 0,
  });
  let used = usage();
  /** Whether the bot's calls carry their `Idempotency-Key`, as the reference bot sends them (behaviour §16). */
  let keyed = false;
  let keys = 0;
  const stopTable = countTableUse(() => used, 'benchCostMeter');
  const lines = (text: string) => {
    used.logBytes += Buffer.byteLength(text) + 1;
  };
  // One writer for both, as standard output is in Lambda: an event carrying metrics is counted as its one merged line.
  const logOutput = setLogOutput(jsonLinesTo(lines));
  const metricOutput = setMetricOutput(lines);
  const restore: (() => void)[] = [
    () => {
      setLogOutput(logOutput);
      setMetricOutput(metricOutput);
    },
  ];
  for (const { queue } of service.jobs!.queues.values()) {
    const send = queue.send.bind(queue);
    queue.send = (body: string, delaySeconds?: number) => {
      used.sqsMessages++;
      return send(body, delaySeconds);
    };
    restore.push(() => {
      queue.send = send;
    });
  }
  const sandbox = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  let sendingApi = false;
  restore.push(
    countPlatformRounds(
      new URL(sandbox).host,
      () => used,
      () => sendingApi,
    ),
  );
  return {
    /** Starts counting afresh (the platform's request log too). */
    async reset() {
      await fetch(`${sandbox}/_sandbox/requests`, { method: 'DELETE' });
      used = usage();
    },
    async take(): Promise<Usage> {
      used.platformCalls = ((await (await fetch(`${sandbox}/_sandbox/requests`)).json()) as unknown[]).length;
      return used;
    },
    /**
     * One API request the bot sends through its door (the HTTP API), timed:
     * its route's invocation. The door's authorizer answer is cached per
     * token, so it runs once per cache period whatever the requests (priced
     * in `monthlyFixed`), not per request as the REST API's does.
     */
    async api<T>(send: () => Promise<T>): Promise<T> {
      const started = performance.now();
      sendingApi = true;
      const out = await send().finally(() => {
        sendingApi = false;
      });
      used.routeMs.push(performance.now() - started);
      used.apiRequests++;
      return out;
    },
    /** Sends the calls made from now on with an `Idempotency-Key` each (true), as the reference bot does, or without (false). */
    keyCalls(on: boolean) {
      keyed = on;
    },
    /** The headers a bot call carries besides its own: a key of its own while calls are keyed. */
    key(): Record<string, string> {
      return keyed ? { 'idempotency-key': `bot-call-${++keys}` } : {};
    },
    /** An invocation that is not an API request's (a producer's run). */
    invoked() {
      used.otherInvocations++;
    },
    stop() {
      stopTable();
      for (const undo of restore) undo();
    },
  };
}

/**
 * Counts the platform's rounds into `into()`: the transport calls over
 * `node:http` (`nodeFetch`, in this process in local mode), so a call to the
 * sandbox at `host` made while none is in flight starts a round, and one
 * made while another is (`Promise.all`) shares it. Local mode's calls are a
 * fraction of AWS's 100 ms, so which overlap is known only here, by what was
 * in flight. Only while an API request is sent (`overlapping()`), one at a
 * time, is what is in flight that one invocation's; job consumers run at
 * once in local mode but each in its own invocation on AWS, so each of
 * their calls is a round of its own. Answers the function that stops
 * counting.
 */
function countPlatformRounds(host: string, into: () => Usage, overlapping: () => boolean): () => void {
  const original = http.request;
  let inFlight = 0;
  const wrapped = ((...args: Parameters<typeof http.request>) => {
    const request = original(...args);
    const target = args[0];
    if (!(target instanceof URL && target.host === host && target.pathname.startsWith('/api/'))) return request;
    if (inFlight++ === 0 || !overlapping()) into().platformRounds++;
    let ended = false;
    request.once('close', () => {
      if (!ended) inFlight--;
      ended = true;
    });
    return request;
  }) as typeof http.request;
  http.request = wrapped;
  return () => {
    http.request = original;
  };
}

type Meter = ReturnType<typeof meter>;

interface CostedEvent {
  name: string;
  /**
   * Whether its calls are measured a second time as the reference bot sends
   * them, each with its `Idempotency-Key` kept by the shared mechanism
   * (shared/http/idempotency.ts): the issue's figures are without.
   */
  keyed?: true;
  /** Untimed set-up; answers the event, sent `EVENTS` times (the `i`th), and what one event is (1, or the channels of an item). */
  prepare(service: LocalService, m: Meter): Promise<{ send: (i: number) => Promise<unknown>; per: number }>;
  /** Waits for the work the events queued (refreshes, units) before counting stops. */
  settle?: (service: LocalService) => Promise<void>;
}

const snowflake = snowflakes(8234567890000000000n);
const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const EVENTS_COSTED: CostedEvent[] = [
  {
    name: 'a vote',
    keyed: true,
    async prepare(service, m) {
      const poll = await setUpPoll(service);
      return {
        per: 1,
        send: (i) =>
          m.api(() =>
            succeed(service, 'POST', '/modules/polls/entry/vote', voteBody(poll.guild, poll.channel, poll.pollId, (i % 4) + 1), {
              'x-acting-user-id': snowflake(),
              ...m.key(),
            }),
          ),
      };
    },
    // The last refresh window's edit: windows widen with the vote rate, to MAX_REFRESH_SPACING_MS.
    settle: () => pause(MAX_REFRESH_SPACING_MS + 3000),
  },
  {
    name: 'a reaction check (reaction roles)',
    keyed: true,
    async prepare(service, m) {
      const guild = snowflake();
      const channel = snowflake();
      const role = snowflake();
      await ofGuild(service, guild, { channels: [channel], roles: [role] });
      await succeed(service, 'POST', '/modules/reactionroles/enable', { guild_id: guild });
      const { panel } = await succeed(service, 'POST', '/modules/reactionroles/panels', {
        guild_id: guild,
        channel_id: channel,
        is_register: false,
        panel_type: 'emoji',
        is_embed: false,
        content: 'Pick',
        ...PANEL_SETTINGS,
      });
      await succeed(service, 'POST', `/modules/reactionroles/panel/${panel.panel_id}/entries`, {
        guild_id: guild,
        role_ids: [role],
        emoji_name: '😀',
        emoji_id: null,
        text: null,
        description: null,
      });
      const body = { guild_id: guild, channel_id: channel, message_id: panel.message_id, interaction_type: 'reaction_add', emoji_name: '😀', emoji_id: null };
      return {
        per: 1,
        send: () => m.api(() => succeed(service, 'POST', '/modules/reactionroles/check', body, { 'x-acting-user-id': snowflake(), ...m.key() })),
      };
    },
  },
  {
    name: 'a join with welcome and invite tracking',
    keyed: true,
    async prepare(service, m) {
      const guild = snowflake();
      const channel = snowflake();
      await ofGuild(service, guild, { channels: [channel] });
      await succeed(service, 'POST', '/modules/welcoming/enable', { guild_id: guild });
      await succeed(service, 'POST', '/modules/welcoming/responses', {
        guild_id: guild,
        response_type: 2,
        is_embed: false,
        content: 'Welcome <user_mention>!',
      });
      await succeed(service, 'PUT', '/modules/welcoming/settings', { guild_id: guild, welcome_messages_enabled: true, welcome_messages_channel: channel });
      await succeed(service, 'POST', '/modules/invite-tracker/enable', { guild_id: guild });
      const { invite_code } = await succeed(
        service,
        'POST',
        '/modules/invite-tracker/invites',
        { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
        { 'x-acting-user-id': snowflake() },
      );
      return {
        per: 1,
        send: async () => {
          // The member joins on the platform (the sandbox's control route, not a platform call), then the bot sends both checks.
          const member = snowflake();
          await control(service, 'POST', `/_sandbox/guilds/${guild}/members/${member}/join-via-invite/${invite_code}`, {});
          await m.api(() =>
            succeed(service, 'POST', '/modules/welcoming/check/welcome/channel', { guild_id: guild }, { 'x-acting-user-id': member, ...m.key() }),
          );
          await m.api(() =>
            succeed(service, 'POST', '/modules/invite-tracker/events/join/check-invite', { guild_id: guild }, { 'x-acting-user-id': member, ...m.key() }),
          );
        },
      };
    },
  },
  {
    name: SINGLE_RECORDING,
    keyed: true,
    async prepare(service, m) {
      const guild = snowflake();
      await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id: guild });
      const body = () => ({ guild_id: guild, channel_id: snowflake(), author_id: snowflake(), message_id: snowflake() });
      return { per: 1, send: () => m.api(() => succeed(service, 'POST', '/modules/serverstats/stats/messages/sent', body(), m.key())) };
    },
  },
  {
    // The model community's messages held by the bot for 10 s: a batch of BATCHED_PER_FLUSH, each batch to a guild of its own (a cold settings cache, as every 10 s).
    name: BATCHED_RECORDING,
    async prepare(service, m) {
      const records = () => {
        const at = new Date().toISOString();
        return Array.from({ length: BATCHED_PER_FLUSH }, () => ({
          family: 'messages/sent',
          at,
          channel_id: snowflake(),
          author_id: snowflake(),
          message_id: snowflake(),
        }));
      };
      // Before counting starts, a guild a batch (the warm-up's three too), each as a guild is between two of its
      // batches 10 s apart: its hour already noted for filing by an earlier batch (filing.ts: once a guild-hour,
      // 1 in 360 batches), its settings no longer cached (a settings write makes the process forget them).
      const guilds: string[] = [];
      for (let i = 0; i < EVENTS + 3; i++) {
        const guild_id = snowflake();
        guilds.push(guild_id);
        await succeed(service, 'POST', '/modules/serverstats/enable', { guild_id });
        await succeed(service, 'POST', '/modules/serverstats/stats/batch', { guild_id, records: records() });
        await succeed(service, 'PUT', '/modules/serverstats/settings', { guild_id, stats_messages_enabled: true });
      }
      return {
        per: BATCHED_PER_FLUSH,
        send: (i) => {
          const body = { guild_id: guilds[i >= 1_000_000 ? i - 1_000_000 + EVENTS : i]!, records: records() };
          return m.api(() => succeed(service, 'POST', '/modules/serverstats/stats/batch', body, { 'idempotency-key': `cost-${snowflake()}` }));
        },
      };
    },
  },
  {
    name: 'a feed item announced, per channel',
    async prepare(service, m) {
      const channels = 100;
      const { community } = await watchers(service, channels);
      return {
        per: channels,
        send: async (i) => {
          await control(service, 'POST', `/_sandbox/sources/forum/${community}/posts`, { title: `Costed item ${i}` });
          // The poll job's run finding the item (one invocation a source and interval, whatever the items).
          m.invoked();
          await pollSource('forum', community);
          await drained(performance.now() + 120_000);
        },
      };
    },
  },
];

/** What one event costs, by service, in dollars. */
function priced(u: Usage, events: number) {
  const per = (n: number) => n / events;
  const invocations = u.apiRequests + u.otherInvocations + u.sqsMessages;
  // The median route time for each: a shared machine's outliers are not the route's.
  const routeMs = u.routeMs.length > 0 ? median(u.routeMs) * u.routeMs.length : 0;
  const ms = routeMs + u.otherInvocations + u.sqsMessages + LATENCY.tableMs * u.tableRequests + LATENCY.platformMs * u.platformRounds;
  const parts = {
    lambda: per(invocations * PRICES.lambdaRequest + (ms / 1000) * MEMORY_GB * PRICES.lambdaGbSecond),
    api: per(u.apiRequests * PRICES.httpApiRequest),
    dynamo: per(u.readUnits * PRICES.dynamoRead + u.writeUnits * PRICES.dynamoWrite),
    sqs: per(3 * u.sqsMessages * PRICES.sqsRequest),
    logs: per(((invocations * LOG_BYTES.invocation + u.apiRequests * LOG_BYTES.apiRequest + u.logBytes) / 1e9) * PRICES.logsGb),
  };
  return { parts, total: parts.lambda + parts.api + parts.dynamo + parts.sqs + parts.logs, invocations: per(invocations), ms: per(ms) };
}

const dollars = (n: number) => (n >= 100 ? `$${n.toFixed(0)}` : n >= 1 ? `$${n.toFixed(2)}` : `$${n.toFixed(3)}`);

/** Runs a month of a schedule expression (`rate(N minute[s]|hour[s])`); a cron is counted as once a minute, an upper bound. */
function runsAMonth(schedule: string): number {
  const minutes = 30 * 24 * 60;
  const rate = /^rate\((\d+) (minute|hour)s?\)$/.exec(schedule);
  if (!rate) return minutes;
  return minutes / (Number(rate[1]) * (rate[2] === 'hour' ? 60 : 1));
}

/**
 * What runs whatever the events (issue 45 part 3), by part: the producer,
 * one invocation per schedule and run for every job it names (infra's
 * `JobQueues`), each job's shards read with one Query of the due index
 * each (half a read unit; every tenth minute a job that does not spread
 * also reads the other shards), its Queries counted one after the other
 * (an upper bound: they go at once); and Lambda's pollers of each job queue
 * (`jobQueueOf`: five long polls of 20 s at a time, 648,000 receives a
 * month a queue, whatever the queue carries). A producer run writes a
 * line or two (200 bytes). And the bot door's authorizer, once per cache
 * period.
 */
export function monthlyFixed() {
  const minutes = 30 * 24 * 60;
  const schedules = [...new Set(jobs.flatMap((j) => (j.schedule ? [j.schedule] : [])))];
  const runs = schedules.reduce((n, schedule) => n + runsAMonth(schedule), 0);
  const queries = jobs
    .filter((j) => j.schedule)
    .reduce((n, j) => n + runsAMonth(j.schedule!) * (shardsOf(j.id) + (shardsOf(j.id) === 1 ? (SPREAD - 1) / 10 : 0)), 0);
  const queues = new Set(jobs.map(jobQueueOf)).size;
  const ms = runs * 10 + queries * LATENCY.tableMs;
  const producer = {
    lambda: runs * PRICES.lambdaRequest + (ms / 1000) * MEMORY_GB * PRICES.lambdaGbSecond,
    dynamo: queries * 0.5 * PRICES.dynamoRead,
    logs: ((runs * 200) / 1e9) * PRICES.logsGb,
  };
  const pollers = queues * 5 * 3 * minutes * PRICES.sqsRequest;
  // The door's authorizer: once per cache period while the bot calls (a Secrets Manager read is cached in the function).
  const doorRuns = (minutes * 60) / BOT_AUTHORIZER_CACHE.toSeconds();
  const doorAuthorizer = doorRuns * (PRICES.lambdaRequest + (10 / 1000) * MEMORY_GB * PRICES.lambdaGbSecond);
  const parts = { producerLambda: producer.lambda, producerDynamo: producer.dynamo, producerLogs: producer.logs, pollers, doorAuthorizer };
  return { runs, queries, queues, parts, total: Object.values(parts).reduce((n, x) => n + x, 0) };
}

export async function runCostBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false });
  const m = meter(service);
  const rows: Row[] = [];
  const perEvent = new Map<string, number>();
  /** The same events as the reference bot sends them, each call keyed: what the model month is priced with. */
  const keyedEvent = new Map<string, number>();
  /** Sends the event `count` times after three untimed (a warm function, as most of a month's events meet) and prices one. */
  const measure = async (event: CostedEvent, send: (i: number) => Promise<unknown>, per: number, keyed: boolean) => {
    m.keyCalls(keyed);
    for (let i = 0; i < 3; i++) await send(1_000_000 + i);
    await event.settle?.(service);
    await m.reset();
    const times: number[] = [];
    const count = event.name.startsWith('a feed') ? Math.max(1, Math.round(EVENTS / 100)) : EVENTS;
    for (let i = 0; i < count; i++) {
      const started = performance.now();
      await send(i);
      times.push(performance.now() - started);
    }
    await event.settle?.(service);
    const used = await m.take();
    m.keyCalls(false);
    const c = priced(used, count * per);
    const name = keyed ? `${event.name}, ${KEYED}` : event.name;
    rows.push({
      section: SECTION,
      measure: `a million of: ${name}`,
      value: dollars(c.total * 1e6),
      note: `API Gateway ${dollars(c.parts.api * 1e6)}, DynamoDB ${dollars(c.parts.dynamo * 1e6)} (${(used.readUnits / (count * per)).toFixed(2)} RRU + ${(used.writeUnits / (count * per)).toFixed(2)} WRU in ${(used.tableRequests / (count * per)).toFixed(2)} requests), Lambda ${dollars(c.parts.lambda * 1e6)} (${c.invocations.toFixed(2)} invocations, ${c.ms.toFixed(1)} ms at ${DEFAULT_SETTINGS.memorySize} MB; ${used.routeMs.length > 0 ? median(used.routeMs).toFixed(1) : '0'} ms a route measured (median), median event ${median(times).toFixed(1)} ms), SQS ${dollars(c.parts.sqs * 1e6)} (${(used.sqsMessages / (count * per)).toFixed(3)} messages), logs ${dollars(c.parts.logs * 1e6)} (the functions' own lines ${(used.logBytes / (count * per)).toFixed(0)} B); ${(used.platformCalls / (count * per)).toFixed(2)} platform calls in ${(used.platformRounds / (count * per)).toFixed(2)} rounds; ${count * per} measured`,
    });
    return c.total;
  };
  try {
    for (const event of EVENTS_COSTED) {
      const { send, per } = await event.prepare(service, m);
      perEvent.set(event.name, await measure(event, send, per, false));
      if (event.keyed) keyedEvent.set(event.name, await measure(event, send, per, true));
    }
  } finally {
    m.stop();
    await service.stop();
  }
  const fixed = monthlyFixed();
  const eventOf = (name: string) => (name === 'recording' ? BATCHED_RECORDING : name);
  const month = Object.entries(COMMUNITY.perDay).map(([name, perDay]) => ({
    name: eventOf(name),
    dollars: perDay * 30 * (keyedEvent.get(eventOf(name)) ?? perEvent.get(eventOf(name)) ?? Number.NaN),
  }));
  const total = month.reduce((n, e) => n + e.dollars, 0) + fixed.total;
  const ranked = [...month].sort((a, b) => b.dollars - a.dollars);
  rows.push(
    {
      section: SECTION,
      measure: 'fixed, a month: producers and queue pollers',
      value: dollars(fixed.total),
      note: `pollers of ${fixed.queues} job queues (${jobs.length} jobs) ${dollars(fixed.parts.pollers)}; the producer: ${fixed.runs.toLocaleString('en-US')} runs (one a minute for every job) Lambda ${dollars(fixed.parts.producerLambda)}, ${Math.round(fixed.queries).toLocaleString('en-US')} Queries of the due index DynamoDB ${dollars(fixed.parts.producerDynamo)}, logs ${dollars(fixed.parts.producerLogs)}; the bot door's authorizer once per ${BOT_AUTHORIZER_CACHE.toMinutes()} minutes ${dollars(fixed.parts.doorAuthorizer)}; whatever the events`,
    },
    {
      section: SECTION,
      measure: `a month of a model community of ${COMMUNITY.members.toLocaleString('en-US')} members`,
      value: dollars(total),
      note: `events a day assumed: ${Object.entries(COMMUNITY.perDay)
        .map(([name, n]) => `${n.toLocaleString('en-US')} × ${eventOf(name)}`)
        .join(
          ', ',
        )}, each keyed as the reference bot sends it; ${ranked.map((e) => `${e.name} ${dollars(e.dollars)}`).join(', ')}, fixed ${dollars(fixed.total)}`,
    },
    {
      section: SECTION,
      measure: 'prices (us-east-1 list, 2026-11-27)',
      value: 'bench/cost.ts',
      note: `Lambda arm64 $${PRICES.lambdaGbSecond} a GB-s and $${PRICES.lambdaRequest * 1e6} a million requests; API Gateway HTTP API (the bot's door) $${PRICES.httpApiRequest * 1e6} a million, REST API (guild keys) $${PRICES.apiRequest * 1e6}; DynamoDB on-demand $${PRICES.dynamoWrite * 1e6} a million WRU, $${PRICES.dynamoRead * 1e6} a million RRU; SQS $${PRICES.sqsRequest * 1e6} a million requests; CloudWatch Logs $${PRICES.logsGb} a GB ingested (${LOG_BYTES.apiRequest} B the door's access line of an API request, none of Lambda's own, the functions' own lines measured); AWS round trips assumed ${LATENCY.tableMs} ms a table request, ${LATENCY.platformMs} ms a platform round (a route's calls at once share one)`,
    },
  );
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runCostBench());
}
