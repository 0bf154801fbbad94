/**
 * Verifications in the table: the only file issuing their commands.
 *
 * | item           | pk                     | sk                          | holds                                    |
 * |----------------|------------------------|-----------------------------|------------------------------------------|
 * | entry          | `G#<guild>`            | `VERIFICATION#<verifier_id>`| the record, the token hash and life, the lockout |
 * | member's open  | `G#<guild>`            | `VERIFYMEMBER#<member>`     | the member's latest entry and its prompt  |
 * | by verifier id | `VERIFIERID#<id>`      | `ENTRY`                     | the guild (handling and the web page)     |
 * | removal        | `G#<guild>`            | `VERIFSWEEP`                | a settings delete's removal of entries behind its answer (cutoff, place) |
 *
 * Verifier IDs start with the time, so entries list newest first. Every
 * change of an entry is conditional on what was read (`_version`), so a
 * verification, a wrong passphrase and the lockout each count once. Each
 * prompt sent is first claimed on the member's pointer (`prompt`, a fresh
 * token, written conditional on the one read), and the entry's write
 * after the prompt went out names that claim (`_prompt`): while the
 * pointer's claim is not the one its entry names, a prompt is in flight.
 * So calls at once for one member end with one entry and one prompt, and a
 * call after the last one answered sends the prompt again; no time tells
 * them apart.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getNamed } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { queryAfterCursor, queryAll } from '#shared/db/pagination.js';
import { entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { orderedIdFloor } from '#shared/ids.js';
import { type ModuleStateItem, guildKey, moduleStateKey, prefixRange } from '#shared/modules/store.js';
import type { Selected } from '#shared/scheduler/removal.js';

export interface Verification {
  id: number;
  guild_id: string;
  verifier_id: string;
  user_id: string;
  requester_id: string | null;
  is_verified: boolean;
  verify_message_id: string | null;
  verify_channel_id: string | null;
  timestamp: string;
  verified_at: string | null;
  failed_attempts: number;
  /** SHA-256 of the web page's one-time token (type 3), hex; null once used. */
  _token_hash: string | null;
  /** When the token was issued and until when it works (epoch ms of the service clock; 0 without a token). */
  _token_issued_at: number;
  _token_expires_at: number;
  /** Answers are refused until then (epoch ms) after 5 wrong passphrases. */
  _locked_until: number;
  _version: number;
  /** The claim (the member pointer's `prompt`) whose prompt this entry carries; absent on entries stored before it was kept. */
  _prompt?: string;
}

type Item = Record<string, NativeAttributeValue>;

const verifierPartition = partition<[verifierId: string]>('VERIFIERID#');

export const VerificationEntity = entity({
  name: 'verification',
  prefix: 'VERIFICATION#',
  pk: (f: { guildId: string; verifierId: string }) => guildKey(f.guildId),
  sk: (f) => [f.verifierId],
  parse: (item: Item): Verification => {
    const { pk: _pk, sk: _sk, entity: _e, ...rest } = item;
    return rest as Verification;
  },
});

/** The first verifier ID of the entries stored at or after `since` (ISO 8601): verifier IDs start with their time. */
const idsFrom = (since: string) => orderedIdFloor(Date.parse(since));
/** The first sort key of the entries stored at or after `since`. */
export const entriesFrom = (since: string) => `${VerificationEntity.prefix}${idsFrom(since)}`;
/** Whether an entry was stored at or after `since` (none: every entry is); older ones are being removed behind a settings delete. */
export const storedSince = (v: Pick<Verification, 'verifier_id'>, since: string | undefined) => since === undefined || v.verifier_id >= idsFrom(since);

/** The entry's API record (behaviour §11). */
export function verificationRecord(v: Verification) {
  const { _token_hash: _t, _token_issued_at: _i, _token_expires_at: _e, _locked_until: _l, _version: _v, _prompt: _p, ...record } = v;
  return record;
}

export async function getVerification(guildId: string, verifierId: string): Promise<Verification | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: VerificationEntity.key({ guildId, verifierId }), ConsistentRead: true }));
  return out.Item ? VerificationEntity.parse(out.Item) : null;
}

/** The entry of a verifier ID with its guild's module state: the ID pointer, then both in one batch read. */
export async function findVerificationWithState(verifierId: string): Promise<{ entry: Verification; state: ModuleStateItem | null } | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: IdEntity.key({ verifierId }), ConsistentRead: true }));
  if (!out.Item) return null;
  const guildId = IdEntity.parse(out.Item);
  const found = await getNamed({ entry: VerificationEntity.key({ guildId, verifierId }), state: moduleStateKey(guildId, 'verifier') });
  const state = found.state as ModuleStateItem | null;
  const entry = found.entry && VerificationEntity.parse(found.entry);
  return entry && storedSince(entry, state?.data_since) ? { entry, state } : null;
}

/** The member's pointer: their latest entry, and the prompt send that last claimed it (null on pointers written before claims). */
export interface MemberPointer {
  verifier_id: string;
  prompt: string | null;
  /** When the prompt was claimed (epoch ms). */
  claimed_at: number;
}

const MemberEntity = entity({
  name: 'verification_member',
  prefix: 'VERIFYMEMBER#',
  pk: (f: { guildId: string; memberId: string }) => guildKey(f.guildId),
  sk: (f) => [f.memberId],
  parse: (item): MemberPointer => ({
    verifier_id: String(item.verifier_id),
    prompt: typeof item.prompt === 'string' ? item.prompt : null,
    claimed_at: Number(item.claimed_at ?? 0),
  }),
});
const pointerOf = (item: Item | null | undefined): MemberPointer | null => (item ? MemberEntity.parse(item) : null);

/** By verifier ID: the entry's guild (`guild_id`), for handling and the web page. */
const IdEntity = entity({
  name: 'verification_id',
  prefix: 'ENTRY',
  pk: (f: { verifierId: string }) => verifierPartition(f.verifierId),
  parse: (item) => String(item.guild_id),
});

/**
 * The guild's module state, read with the pointer to the member's latest
 * entry; then that entry (`latest`, null while a first prompt is under way
 * or after a crash), and `open` when it is still unverified.
 */
export async function openVerificationWithState(
  guildId: string,
  memberId: string,
): Promise<{ state: ModuleStateItem | null; open: Verification | null; latest: Verification | null; pointer: MemberPointer | null }> {
  const found = await getNamed({ state: moduleStateKey(guildId, 'verifier'), member: MemberEntity.key({ guildId, memberId }) });
  const pointer = pointerOf(found.member);
  const state = found.state as ModuleStateItem | null;
  // An entry stored before a settings delete is gone to every read, though its removal may still run.
  const latest = pointer && storedSince(pointer, state?.data_since) ? await getVerification(guildId, pointer.verifier_id) : null;
  return { state, open: latest && !latest.is_verified ? latest : null, latest, pointer };
}

export async function memberPointer(guildId: string, memberId: string): Promise<MemberPointer | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: MemberEntity.key({ guildId, memberId }), ConsistentRead: true }));
  return pointerOf(out.Item);
}

/**
 * Claims the member's next prompt: the pointer moves from what was read
 * (`read`, null when there was none) to `next`. The one conditional write
 * that decides between calls at once: false when another claimed first.
 */
export function claimPrompt(guildId: string, memberId: string, read: MemberPointer | null, next: MemberPointer): Promise<boolean> {
  const condition =
    read === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : read.prompt === null
        ? { ConditionExpression: 'verifier_id = :id AND attribute_not_exists(prompt)', ExpressionAttributeValues: { ':id': read.verifier_id } }
        : { ConditionExpression: 'prompt = :prompt', ExpressionAttributeValues: { ':prompt': read.prompt } };
  return conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: MemberEntity.item({ guildId, memberId }, next), ...condition })));
}

/** Gives back a claim whose prompt could not be sent: the pointer is again as it was read (a failed request changes nothing). */
export async function releasePrompt(guildId: string, memberId: string, claimed: MemberPointer, read: MemberPointer | null): Promise<void> {
  const mine = { ConditionExpression: 'prompt = :prompt', ExpressionAttributeValues: { ':prompt': claimed.prompt } };
  await conditional(() =>
    read === null
      ? db().send(new DeleteCommand({ TableName: tableName(), Key: MemberEntity.key({ guildId, memberId }), ...mine }))
      : db().send(
          new PutCommand({
            TableName: tableName(),
            Item: MemberEntity.item(
              { guildId, memberId },
              { verifier_id: read.verifier_id, claimed_at: read.claimed_at, ...(read.prompt ? { prompt: read.prompt } : {}) },
            ),
            ...mine,
          }),
        ),
  );
}

/** An entry's items as stored: the entry, its ID pointer, and the member's pointer naming it (claimed when the entry was made). */
export function entryItems(v: Verification): { entry: Item; id: Item; member: Item } {
  return {
    entry: VerificationEntity.item({ guildId: v.guild_id, verifierId: v.verifier_id }, v),
    id: IdEntity.item({ verifierId: v.verifier_id }, { guild_id: v.guild_id }),
    member: MemberEntity.item({ guildId: v.guild_id, memberId: v.user_id }, { verifier_id: v.verifier_id, claimed_at: Date.parse(v.timestamp) }),
  };
}

/** Stores a new entry and its ID pointer (the member's pointer names it already: {@link claimPrompt}). */
export async function insertVerification(v: Verification): Promise<void> {
  const items = entryItems(v);
  // At once: the ID is new, so the entry's condition always holds.
  await Promise.all([
    db().send(new PutCommand({ TableName: tableName(), Item: items.id })),
    db().send(new PutCommand({ TableName: tableName(), Item: items.entry, ConditionExpression: 'attribute_not_exists(pk)' })),
  ]);
}

/** Changes fields of an entry read at `v._version`; false when another change came first. */
export function updateVerification(v: Verification, fields: Partial<Verification>): Promise<boolean> {
  const entries = Object.entries(fields);
  return conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: VerificationEntity.key({ guildId: v.guild_id, verifierId: v.verifier_id }),
        UpdateExpression: `SET ${[...entries.map((_, i) => `#f${i} = :f${i}`), '#v = #v + :one'].join(', ')}`,
        ConditionExpression: '#v = :v',
        ExpressionAttributeNames: { '#v': '_version', ...Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])) },
        ExpressionAttributeValues: { ':v': v._version, ':one': 1, ...Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])) },
      }),
    ),
  );
}

/** One page of a guild's verifications, newest first (minted IDs start with the time), from where `page.cursor` says. */
export async function verificationsPage(guildId: string, page: { limit: number; cursor?: string }) {
  const { items, next_cursor } = await queryAfterCursor(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': guildKey(guildId), ':p': VerificationEntity.prefix },
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    { ...page, scope: { guildId, family: 'verifier/entries', filter: {} } },
  );
  return { entries: items.map(VerificationEntity.parse), next_cursor };
}

/** The guild's verifications stored at or after `since` (none: all), newest first. */
export async function listVerifications(guildId: string, since?: string): Promise<Verification[]> {
  const items = await queryAll({
    ...prefixRange(guildId, VerificationEntity.prefix, since === undefined ? undefined : entriesFrom(since)),
    ScanIndexForward: false,
    ConsistentRead: true,
  });
  return items.map(VerificationEntity.parse);
}

export async function deleteVerifications(entries: Verification[]): Promise<void> {
  await deleteKeys(
    entries.flatMap((v) => [
      VerificationEntity.key({ guildId: v.guild_id, verifierId: v.verifier_id }),
      IdEntity.key({ verifierId: v.verifier_id }),
      MemberEntity.key({ guildId: v.guild_id, memberId: v.user_id }),
    ]),
  );
}

/** The removal of the entries stored before a settings delete (`shared/scheduler/removal.ts`): its cutoff and place. */
export const EntrySweepEntity = entity({
  name: 'verification_sweep',
  prefix: 'VERIFSWEEP',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  parse: (item) => item,
});

/** The module's range in the guild's partition: entries and members' pointers (`VERIFICATION#`, `VERIFYMEMBER#`) start with `VERIF`. */
export const moduleRange = (guildId: string) => ({ pk: guildKey(guildId), prefix: 'VERIF' });

/**
 * What a removal behind a settings delete at `cutoff` deletes of a page of
 * the module's range: the entries stored before it with their ID pointers,
 * and the members' pointers still naming such an entry (a pointer a prompt
 * after the delete claimed again names a newer one, and stays).
 */
export function removedBefore(guildId: string, cutoff: string, items: Item[]): Selected[] {
  const floor = idsFrom(cutoff);
  return items.flatMap((item): Selected[] => {
    const sk = String(item.sk);
    if (VerificationEntity.holds(item)) {
      const verifierId = sk.slice(VerificationEntity.prefix.length);
      return verifierId < floor ? [{ pk: guildKey(guildId), sk }, IdEntity.key({ verifierId })] : [];
    }
    if (!MemberEntity.holds(item)) return [];
    return [{ key: { pk: guildKey(guildId), sk }, condition: { verifier_id: { lt: floor } } }];
  });
}
