/**
 * POST /stats/batch (CONTRACT §18): up to 500 recordings of any families in
 * one call, each at its own event time. The records of the families with
 * one record per recording are packed, a family's records of the batch in
 * one item (`packs.ts`), so a batched message costs a small part of a
 * write; presence and voice recordings open and close sessions, so they go
 * through their single recording's logic, in the batch's order, at their
 * own times.
 */
import { nextRecordIdFromBlock } from '#shared/db/record-ids.js';
import { AppError } from '#shared/errors.js';
import { RawBody, successResponse } from '#shared/http/envelope.js';
import { type KeptOnce, type KeyedCall, keepOnce, nonceSeedOf, replayOf } from '#shared/http/idempotency.js';
import { assertEnabled } from '#shared/modules/state.js';
import { type ModuleStateItem, readModuleStateCached } from '#shared/modules/store.js';
import type { BatchRecord } from './batch-schemas.js';
import type { FamilyShape } from './families.js';
import { fileLater } from './filing.js';
import { type PackFields, type PackKey, type PackedStat, deletePacks, keyedFirst, packItem, putPacks, putPacksOnce } from './packs.js';
import { ID_TYPE, MODULE, SETTINGS_CACHE_MS, closeVoiceSession, openVoiceSession, recordFromBody, recordPresence } from './stats.js';

/** The record fields naming the member and the channel, by shape (as `recordFromBody` fills them). */
function packFields(shape: FamilyShape): PackFields {
  switch (shape.kind) {
    case 'user':
    case 'commands':
      return { time: 'timestamp', member: 'user_id', channel: null };
    case 'member':
      return { time: 'timestamp', member: 'member_id', channel: null };
    case 'messages':
      return { time: 'timestamp', member: 'author_id', channel: 'channel_id' };
    case 'trigger-hit':
      return { time: 'timestamp', member: 'triggering_user_id', channel: null };
    default:
      return { time: 'timestamp', member: null, channel: null };
  }
}

const isSession = (record: BatchRecord) => record.family.family.shape.kind === 'presence' || record.family.family.shape.kind === 'voice';

/** What a batch answers: its counts, or a repeat's answer as the first call sent it. */
type BatchAnswer = { recorded: number; skipped: number } | RawBody;

/**
 * Records a batch. With an `Idempotency-Key` (behaviour §16) a batch of
 * packed records keeps the key itself, as its row declares: its packs are
 * filed under numbers derived from the key and the request (`keyedFirst`)
 * and written only where absent, then its answer is kept under the key in
 * one conditional write; a repeat finds its packs written and the answer
 * kept, and answers that again. A batch naming presence or voice records
 * (sessions, which read and change what earlier recordings left) takes the
 * key the endpoint's way before it runs, and its packs are keyed alike.
 */
export async function recordBatch(guildId: string, records: readonly BatchRecord[], key: KeyedCall | null): Promise<BatchAnswer> {
  let state: ModuleStateItem;
  try {
    state = assertEnabled(guildId, MODULE, await readModuleStateCached(guildId, MODULE, SETTINGS_CACHE_MS, { consistent: false }));
  } catch (error) {
    // A repeat of a batch stored before the module was switched off answers as the first call did.
    const replay = key && (await replayOf(key.id, key.fingerprint));
    if (replay) return RawBody.of(replay);
    throw error;
  }
  // Chosen by the body alone, so a repeat takes the same way whatever the settings are by then.
  const ownKey = key && !records.some(isSession) ? key : null;
  if (key && !ownKey) {
    const replay = await key.take();
    if (replay) return RawBody.of(replay);
  }
  const taken = records.filter((record) => state.settings?.[record.family.family.toggle] !== false);
  const seed = key && `${nonceSeedOf(key.id)}\u0000${key.fingerprint}`;

  // Ids in the batch's order, from blocks of this process (one counter write per 500 records).
  const byFamily = new Map<string, PackedStat[]>();
  for (const record of taken.filter((r) => !isSession(r))) {
    const { family } = record.family;
    const id = await nextRecordIdFromBlock(ID_TYPE, 500);
    const { fields, memberId, channelId } = recordFromBody(family.shape, { guild_id: guildId, ...record.fields });
    const list = byFamily.get(family.path) ?? byFamily.set(family.path, []).get(family.path)!;
    list.push({ time: record.at, id, memberId, channelId, record: { id, guild_id: guildId, ...fields, timestamp: record.at } });
  }
  const packs = [...byFamily].map(([path, stats]) => {
    const family = taken.find((record) => record.family.family.path === path)!.family.family;
    return packItem(guildId, path, stats, packFields(family.shape), seed ? keyedFirst(seed, path) : stats[0]!.id);
  });

  // Sessions first: each reads what the one before it left, as single recordings in this order would.
  for (const record of taken.filter(isSession)) {
    const { family, method } = record.family;
    const body = { guild_id: guildId, ...record.fields };
    if (family.shape.kind === 'presence') await recordPresence(family, body as Parameters<typeof recordPresence>[1], record.at);
    else if (method === 'POST') await openVoiceSession(family, body as Parameters<typeof openVoiceSession>[1], record.at);
    else await closeVoiceSession(family, body as Parameters<typeof closeVoiceSession>[1], record.at);
  }
  const answer = { recorded: taken.length, skipped: records.length - taken.length };
  await fileLater(guildId, [...byFamily.values()].flat());
  if (!seed) {
    if (packs.length) await putPacks(packs);
    return answer;
  }
  const written = packs.length ? await putPacksOnce(packs) : [];
  if (!ownKey) return answer;
  return keepOwnKey(ownKey, answer, packs.length, written);
}

/**
 * Keeps the answer of a batch whose packs are written, in one conditional
 * write under its key. When the key turns out to hold an answer already,
 * the packs this attempt wrote are its own to judge: under another
 * request's key (422) they are deleted; under a first call's answer that
 * relied on no pack found written (so none was this attempt's), they are
 * ones the first call's answer no longer stands for (a privacy delete, a
 * family switched on since) and are deleted too, so a repeat changes nothing.
 */
async function keepOwnKey(key: KeyedCall, answer: { recorded: number; skipped: number }, packs: number, written: PackKey[]): Promise<BatchAnswer> {
  let kept: KeptOnce;
  try {
    kept = await keepOnce(key.id, key.fingerprint, successResponse(answer), written.length < packs);
  } catch (error) {
    if (written.length && error instanceof AppError && error.status === 422) await deletePacks(written);
    throw error;
  }
  if (kept.kept) return answer;
  if (written.length && !kept.relied) await deletePacks(written);
  return RawBody.of(kept.replay);
}
