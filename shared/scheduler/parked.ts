import { guildOf } from './keys.js';
import * as store from './store.js';
import type { DueItem } from './store.js';

/**
 * Parked work, as an operator sees and replays it (behaviour §9.1): due
 * items that failed on their last delivery, or were sent too often without
 * completing. Each stays in the table, listed in the parked partition of
 * the due index, for 14 days; its message, if it had one, waits in the
 * job's dead-letter queue. Replaying one brings the item back to pending,
 * due now, so the job's producer sends it on its next run (a second in local
 * mode, a minute deployed), and takes its messages off the dead-letter
 * queue (`replay.ts`, apart so the listing carries no queue client). A
 * replay repeats nothing a job already did: each job guards its effect with
 * a condition or a nonce (behaviour §9).
 */
export interface ParkedWork {
  /** `<job>:<key>`: what `replay` takes. */
  id: string;
  job: string;
  key: string;
  /** The guild the work is for, when it is one guild's (a feed polled for many is not). */
  guild_id: string | null;
  /** Deliveries or dispatches that did not complete. */
  attempts: number;
  last_error: string | null;
  /** ISO 8601. */
  parked_at: string;
  due_at: string;
}

export const parkedId = (job: string, key: string) => `${job}:${key}`;

/** The job and key of a parked work ID, or null when it is not one. */
export function parseParkedId(id: string): { job: string; key: string } | null {
  const at = id.indexOf(':');
  return at > 0 && at < id.length - 1 ? { job: id.slice(0, at), key: id.slice(at + 1) } : null;
}

/** A parked item as the operator sees it. */
export function parkedWorkOf(item: DueItem): ParkedWork {
  const parkedAt = item.parked_at ?? Number(item.gsi1sk ?? 0);
  return {
    id: parkedId(item.job, item.work_key),
    job: item.job,
    key: item.work_key,
    guild_id: guildOf(item.work_key, item.payload),
    attempts: Math.max(item.failures ?? 0, item.dispatches ?? 0),
    last_error: item.last_error ?? null,
    parked_at: new Date(parkedAt).toISOString(),
    due_at: new Date(item.due_at).toISOString(),
  };
}

/** Every parked item, the latest parked first; `job` keeps one job's. */
export async function listParked(job?: string): Promise<ParkedWork[]> {
  const items = await store.queryParked();
  return items.filter((item) => item.phase === 'dead' && (job === undefined || item.job === job)).map(parkedWorkOf);
}
