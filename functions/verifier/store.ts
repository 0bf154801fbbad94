/**
 * Verifications in the table, through their entities.
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
import { getNamed } from '#shared/db/batch.js';
import { type Item, type KeyPageQuery, entity, partition } from '#shared/db/entity.js';
import { orderedIdFloor } from '#shared/ids.js';
import { ModuleState, type ModuleStateItem, guildKey, moduleStateKey } from '#shared/modules/store.js';
import type { Selected } from '#shared/scheduler/removal.js';
import { readKeyPage } from '#shared/db/page.js';

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

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);
const verifierPartition = partition<[verifierId: string]>('VERIFIERID#');

export const VerificationEntity = entity({
  name: 'verification',
  prefix: 'VERIFICATION#',
  pk: inGuild,
  sk: (f: { guildId: string; verifierId: string }) => [f.verifierId],
  parse: (item): Verification => {
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

export const getVerification = (guildId: string, verifierId: string) => VerificationEntity.get({ guildId, verifierId });

/** The entry of a verifier ID with its guild's module state: the ID pointer, then both in one batch read. */
export async function findVerificationWithState(verifierId: string): Promise<{ entry: Verification; state: ModuleStateItem | null } | null> {
  const guildId = await IdEntity.get({ verifierId });
  if (guildId === null) return null;
  const found = await getNamed({ entry: VerificationEntity.key({ guildId, verifierId }), state: moduleStateKey(guildId, 'verifier') });
  const state = found.state && ModuleState.parse(found.state);
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
  pk: inGuild,
  sk: (f: { guildId: string; memberId: string }) => [f.memberId],
  parse: (item): MemberPointer => ({
    verifier_id: String(item.verifier_id),
    prompt: typeof item.prompt === 'string' ? item.prompt : null,
    claimed_at: Number(item.claimed_at ?? 0),
  }),
});

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
  const pointer = found.member && MemberEntity.parse(found.member);
  const state = found.state && ModuleState.parse(found.state);
  // An entry stored before a settings delete is gone to every read, though its removal may still run.
  const latest = pointer && storedSince(pointer, state?.data_since) ? await getVerification(guildId, pointer.verifier_id) : null;
  return { state, open: latest && !latest.is_verified ? latest : null, latest, pointer };
}

export const memberPointer = (guildId: string, memberId: string) => MemberEntity.get({ guildId, memberId });

/**
 * Claims the member's next prompt: the pointer moves from what was read
 * (`read`, null when there was none) to `next`. The one conditional write
 * that decides between calls at once: false when another claimed first.
 */
export function claimPrompt(guildId: string, memberId: string, read: MemberPointer | null, next: MemberPointer): Promise<boolean> {
  const fields = { guildId, memberId };
  if (read === null) return MemberEntity.put(fields, next, { ifAbsent: true });
  const condition = read.prompt === null ? { verifier_id: read.verifier_id, prompt: { exists: false } } : { prompt: read.prompt };
  return MemberEntity.put(fields, next, { condition });
}

/** Gives back a claim whose prompt could not be sent: the pointer is again as it was read (a failed request changes nothing). */
export async function releasePrompt(guildId: string, memberId: string, claimed: MemberPointer, read: MemberPointer | null): Promise<void> {
  const fields = { guildId, memberId };
  const mine = { prompt: { eq: claimed.prompt } };
  if (read === null) await MemberEntity.delete(fields, { condition: mine });
  else {
    const restored = { verifier_id: read.verifier_id, claimed_at: read.claimed_at, ...(read.prompt ? { prompt: read.prompt } : {}) };
    await MemberEntity.put(fields, restored, { condition: mine });
  }
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
  // At once: the ID is new, so the entry's condition always holds.
  const [, written] = await Promise.all([
    IdEntity.put({ verifierId: v.verifier_id }, { guild_id: v.guild_id }),
    VerificationEntity.put({ guildId: v.guild_id, verifierId: v.verifier_id }, v, { ifAbsent: true }),
  ]);
  if (!written) throw new Error(`Verifier ID ${v.verifier_id} was minted twice`);
}

/** Changes fields of an entry read at `v._version`; false when another change came first. */
export function updateVerification(v: Verification, fields: Partial<Omit<Verification, '_version'>>): Promise<boolean> {
  return VerificationEntity.update(
    { guildId: v.guild_id, verifierId: v.verifier_id },
    { set: fields, add: { _version: 1 }, condition: { _version: v._version }, returnValues: 'NONE' },
  );
}

/** One page of a guild's verifications, newest first (minted IDs start with the time), from where `page.cursor` says. */
export async function verificationsPage(guildId: string, page: KeyPageQuery) {
  const { items, next_cursor } = await readKeyPage(VerificationEntity, { guildId }, page, {
    reverse: true,
    scope: { guildId, family: 'verifier/entries', filter: {} },
  });
  return { entries: items, next_cursor };
}

/** The guild's verifications stored at or after `since` (none: all), newest first. */
export const listVerifications = (guildId: string, since?: string): Promise<Verification[]> =>
  VerificationEntity.query({ guildId }, { reverse: true, ...(since === undefined ? {} : { from: entriesFrom(since) }) });

/** Deletes entries with their ID pointers and their members' pointers, unconditionally. */
export async function deleteVerifications(entries: Verification[]): Promise<void> {
  await Promise.all([
    VerificationEntity.deleteMany(entries.map((v) => ({ guildId: v.guild_id, verifierId: v.verifier_id }))),
    IdEntity.deleteMany(entries.map((v) => ({ verifierId: v.verifier_id }))),
    MemberEntity.deleteMany(entries.map((v) => ({ guildId: v.guild_id, memberId: v.user_id }))),
  ]);
}

/** The removal of the entries stored before a settings delete (`shared/scheduler/removal.ts`): its cutoff and place. */
export const EntrySweepEntity = entity({
  name: 'verification_sweep',
  prefix: 'VERIFSWEEP',
  pk: inGuild,
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
