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
import { assertEnabled } from '#shared/modules/state.js';
import { readModuleStateCached } from '#shared/modules/store.js';
import type { BatchRecord } from './batch-schemas.js';
import type { FamilyShape } from './families.js';
import { fileLater } from './filing.js';
import { type PackFields, type PackedStat, packItem, putPacks } from './packs.js';
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

export async function recordBatch(guildId: string, records: readonly BatchRecord[]): Promise<{ recorded: number; skipped: number }> {
  const state = assertEnabled(guildId, MODULE, await readModuleStateCached(guildId, MODULE, SETTINGS_CACHE_MS));
  const taken = records.filter((record) => state.settings?.[record.family.family.toggle] !== false);

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
    return packItem(guildId, path, stats, packFields(family.shape));
  });

  // Sessions first: each reads what the one before it left, as single recordings in this order would.
  for (const record of taken.filter(isSession)) {
    const { family, method } = record.family;
    const body = { guild_id: guildId, ...record.fields };
    if (family.shape.kind === 'presence') await recordPresence(family, body as Parameters<typeof recordPresence>[1], record.at);
    else if (method === 'POST') await openVoiceSession(family, body as Parameters<typeof openVoiceSession>[1], record.at);
    else await closeVoiceSession(family, body as Parameters<typeof closeVoiceSession>[1], record.at);
  }
  await fileLater(guildId, [...byFamily.values()].flat());
  if (packs.length) await putPacks(packs);
  return { recorded: taken.length, skipped: records.length - taken.length };
}
