/**
 * Statistics recordings in batches (CONTRACT §18): the message, command,
 * member and voice recordings the event table makes are held per guild and
 * sent as one `POST /modules/serverstats/stats/batch`, at most every
 * `flushMs` (10 s), sooner when a guild has 500 records or a body near the
 * service's 64 KiB, and all of them when the bot stops. Each record keeps
 * its event's time (`at`). A batch has its own `Idempotency-Key`, made once,
 * so the service's retries of it (service.ts) store it once.
 */
import { randomUUID } from 'node:crypto';
import { type Call, call, operationName } from './calls.js';
import type { CallResult, SendCall } from './service.js';

/** The single recordings that are batched, by operation: the `family` each becomes. */
export const BATCHED_FAMILIES: ReadonlyMap<string, string> = new Map([
  [operationName('post', '/modules/serverstats/stats/messages/sent'), 'messages/sent'],
  [operationName('post', '/modules/serverstats/stats/messages/deleted'), 'messages/deleted'],
  [operationName('post', '/modules/serverstats/stats/commands/used'), 'commands/used'],
  [operationName('post', '/modules/serverstats/stats/members/joined'), 'members/joined'],
  [operationName('post', '/modules/serverstats/stats/members/left'), 'members/left'],
  [operationName('post', '/modules/serverstats/stats/members/total'), 'members/total'],
  [operationName('post', '/modules/serverstats/stats/voice'), 'voice/joined'],
  [operationName('put', '/modules/serverstats/stats/voice'), 'voice/left'],
]);

export const BATCH_OPERATION = operationName('post', '/modules/serverstats/stats/batch');
/** The service's most records a batch. */
export const MAX_RECORDS = 500;
/** The records' bytes a batch stops at: the service takes 64 KiB bodies, and the guild and brackets need a few. */
export const MAX_RECORD_BYTES = 63_000;
export const DEFAULT_FLUSH_MS = 10_000;

/** The status a batched call answers at once: taken, to be sent with its guild's next batch. */
export const ACCEPTED = 202;

type BatchRecord = Record<string, unknown> & { family: string; at: string };

interface Pending {
  records: BatchRecord[];
  bytes: number;
  /** The events' own keys, so a dispatch the gateway sends again is not held twice. */
  keys: Set<string>;
  timer: NodeJS.Timeout;
}

export interface BatchOptions {
  /** How long a guild's first held record waits at most; default 10 s. */
  flushMs?: number;
  /** Told what each batch came to (the bot logs it and notes a module the service says is off). */
  sent?: (guildId: string, records: number, result: CallResult) => void;
  now?: () => number;
}

export class StatsBatches {
  private readonly pending = new Map<string, Pending>();
  private readonly sending = new Set<Promise<void>>();
  private readonly flushMs: number;

  constructor(
    private readonly send: SendCall,
    private readonly options: BatchOptions = {},
  ) {
    this.flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  }

  /** Holds the call if it is a batched recording, answering its result now (202); null for any other call, which is sent as it is. */
  take(held: Call): CallResult | null {
    const family = BATCHED_FAMILIES.get(held.operation);
    const guildId = typeof held.body.guild_id === 'string' ? held.body.guild_id : null;
    if (!family || !guildId) return null;
    const { guild_id: _guild, ...fields } = held.body;
    const record: BatchRecord = { family, at: new Date(this.options.now?.() ?? Date.now()).toISOString(), ...fields };
    const bytes = Buffer.byteLength(JSON.stringify(record)) + 1;
    let batch = this.pending.get(guildId);
    if (batch && held.idempotencyKey && batch.keys.has(held.idempotencyKey)) return { operation: held.operation, status: ACCEPTED, error: null, attempts: 0 };
    if (batch && batch.bytes + bytes > MAX_RECORD_BYTES) this.flush(guildId);
    batch = this.pending.get(guildId);
    if (!batch) {
      batch = { records: [], bytes: 0, keys: new Set(), timer: setTimeout(() => this.flush(guildId), this.flushMs) };
      this.pending.set(guildId, batch);
    }
    batch.records.push(record);
    batch.bytes += bytes;
    if (held.idempotencyKey) batch.keys.add(held.idempotencyKey);
    if (batch.records.length >= MAX_RECORDS) this.flush(guildId);
    return { operation: held.operation, status: ACCEPTED, error: null, attempts: 0 };
  }

  /** Sends the guild's held records now, as one batch with a key of its own. */
  flush(guildId: string): void {
    const batch = this.pending.get(guildId);
    if (!batch) return;
    this.pending.delete(guildId);
    clearTimeout(batch.timer);
    // Each record's fields are those its single recording's call was built (and type-checked) with.
    const records = batch.records as Parameters<typeof call<'post', '/modules/serverstats/stats/batch'>>[2]['records'];
    const sent = call('post', '/modules/serverstats/stats/batch', { guild_id: guildId, records });
    sent.idempotencyKey = `stats-batch:${guildId}:${randomUUID()}`;
    const done = this.send(sent).then(
      (result) => this.options.sent?.(guildId, batch.records.length, result),
      (error: Error) => this.options.sent?.(guildId, batch.records.length, { operation: BATCH_OPERATION, status: null, error: error.message, attempts: 1 }),
    );
    this.sending.add(done);
    done.finally(() => this.sending.delete(done));
  }

  /** Sends everything held and waits for every batch under way (the bot's shutdown). */
  async stop(): Promise<void> {
    for (const guildId of [...this.pending.keys()]) this.flush(guildId);
    await Promise.all([...this.sending]);
  }
}
