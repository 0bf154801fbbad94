/**
 * The invite tracker's stored items and the operations on them (through its
 * entities). In the guild's partition:
 *
 * | item          | sk                          | holds                                                  |
 * |---------------|-----------------------------|--------------------------------------------------------|
 * | invite        | `INVITE#<code>`             | the record; `current_uses` = uses claimed by joins      |
 * | vanity        | `INVITEVANITY`              | the vanity URL's uses claimed by joins                  |
 * | use           | `INVITEUSE#<time>#<id>`     | the record (31 days); gsi1 by inviter; gsi2 by member once it is not the member's latest |
 * | member's last | `INVITEMEMBER#<member>`     | the key of the member's latest use, that join's identity (`joined_at`) and whether its join message was posted |
 * | removal       | `INVITESWEEP`               | a settings delete's removal of uses and members' latest uses behind its answer (cutoff, place) |
 *
 * A join claims one increment of an invite's uses with a conditional write
 * of `current_uses` from n to n + 1, so two joins at once never claim the
 * same increment and there are never more attributions than increments.
 * A join is one use: the use, its increment and the member's pointer are
 * written in one transaction, conditional on the pointer not naming the
 * join's identity already (the member's `joined_at`), so no time decides
 * what is a repeat.
 *
 * A member's uses are found by the member's pointer (their latest) and the
 * member index (gsi2, the earlier ones): a use is written without a gsi2
 * key, which costs a write unit on every join, and gets one in the
 * transaction of the member's next join, which moves the pointer off it.
 * Uses stored before that rule have their gsi2 key from the start.
 */
import { type Item, entity, partition } from '#shared/db/entity.js';
import type { Condition } from '#shared/db/expression.js';
import { type TransactAction, transact } from '#shared/db/transact.js';
import { guildKey } from '#shared/modules/store.js';
import type { Selected } from '#shared/scheduler/removal.js';
import { readKeyPage } from '#shared/db/page.js';

export const USE_TTL_SECONDS = 31 * 24 * 3600;

export interface Invite {
  id: number;
  guild_id: string;
  invite_id: string;
  channel_id: string | null;
  current_uses: number;
  max_uses: number;
  expires_at: string | null;
  owner_id: string | null;
  /** When the platform said it was deleted (epoch ms); a deleted single-use invite stays a candidate 60 s. */
  _deleted_at: number | null;
  /** When the invite was made, as the platform says (ISO 8601): lists answer newest first. Absent on invites recorded before it was kept. */
  _created_at?: string | null;
}

export interface InviteUse {
  id: number;
  guild_id: string;
  invite_id: string | null;
  member_id: string;
  timestamp: string;
  channel_id: string | null;
  inviter_id: string | null;
  has_left: boolean;
  attribution: 'exact' | 'ambiguous' | 'vanity' | 'unknown';
  counted: boolean;
}

/** The record of an item. An invite's own `expires_at` is a date-time string; the table's TTL attribute of a use is a number. */
const strip = (item: Item) => {
  const { pk: _pk, sk: _sk, entity: _e, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, expires_at, ...rest } = item;
  return typeof expires_at === 'string' || expires_at === null ? { ...rest, expires_at } : rest;
};

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

/** The uses attributed to an inviter (gsi1) and those of a member (gsi2), by time. */
const inviterIndex = partition<[guildId: string, inviterId: string]>('INVUSE#');
const memberIndex = partition<[guildId: string, memberId: string]>('INVUSEM#');

/** Every item of the module in a guild's partition: all their sort keys start with this. */
const MODULE_PREFIX = 'INVITE';

export const InviteEntity = entity({
  name: 'invite',
  prefix: 'INVITE#',
  pk: inGuild,
  sk: (f: { guildId: string; code: string }) => [f.code],
  parse: (item): Invite => strip(item) as Invite,
});
/** The vanity URL's uses claimed by joins (`current_uses`). */
const VanityEntity = entity({ name: 'invite_vanity', prefix: 'INVITEVANITY', pk: inGuild, parse: (item) => Number(item.current_uses) });
export const UseEntity = entity({
  name: 'invite_use',
  prefix: 'INVITEUSE#',
  pk: (f: Pick<InviteUse, 'guild_id' | 'timestamp' | 'id'>) => guildKey(f.guild_id),
  sk: (f) => [f.timestamp, String(f.id)],
  parse: (item): InviteUse => strip(item) as InviteUse,
  indexes: {
    gsi1: { pk: (f: { guildId: string; inviterId: string }) => inviterIndex(f.guildId, f.inviterId), prefix: '' },
    gsi2: { pk: (f: { guildId: string; memberId: string }) => memberIndex(f.guildId, f.memberId), prefix: '' },
  },
});
/** The member's latest use (`use_sk`), its join's identity (`joined_at`, as the platform gave it) and whether its join message was posted. */
export const MemberLatestEntity = entity({
  name: 'invite_member_latest',
  prefix: 'INVITEMEMBER#',
  pk: inGuild,
  sk: (f: { guildId: string; memberId: string }) => [f.memberId],
  parse: (item): Item => item,
});
/** The removal of the uses and members' latest uses stored before a settings delete (`shared/scheduler/removal.ts`). */
export const UseSweepEntity = entity({ name: 'invite_use_sweep', prefix: 'INVITESWEEP', pk: inGuild, parse: (item) => item });

/** The first sort key of the uses stored at or after `since` (ISO 8601): a use's sort key starts with its time. */
export const usesFrom = (since: string) => `${UseEntity.prefix}${since}`;
/** Whether a use was stored at or after `since` (none: every use is). */
export const storedSince = (use: Pick<InviteUse, 'timestamp'>, since: string | undefined) => since === undefined || use.timestamp >= since;

export const listInvites = (guildId: string): Promise<Invite[]> => InviteEntity.query({ guildId });

/** Records an invite the service does not track yet; false when it already does. */
export const insertInvite = (invite: Invite): Promise<boolean> =>
  InviteEntity.put({ guildId: invite.guild_id, code: invite.invite_id }, invite, { ifAbsent: true });

/**
 * The claim of increment `n` of an invite's uses, as an action of the join's
 * transaction ({@link recordUse}): `current_uses` from n - 1 to n.
 */
export const inviteUseClaim = (guildId: string, code: string, n: number): TransactAction =>
  InviteEntity.tx.update({ guildId, code }, { set: { current_uses: n }, condition: { current_uses: n - 1 } });

/** Changes fields of a tracked invite; one no longer tracked is left alone. */
export async function updateInvite(guildId: string, code: string, fields: Partial<Invite>): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  await InviteEntity.update({ guildId, code }, { set: fields, condition: { pk: { exists: true } }, returnValues: 'NONE' });
}

/** The vanity URL's uses claimed by joins so far. */
export const claimedVanityUses = (guildId: string): Promise<number | null> => VanityEntity.get({ guildId });

/** The claim of increment `n` of the vanity URL's uses, as an action of the join's transaction. */
export const vanityUseClaim = (guildId: string, n: number): TransactAction =>
  VanityEntity.tx.put({ guildId }, { current_uses: n }, { condition: { current_uses: n - 1 } });

export const setVanityBaseline = (guildId: string, uses: number): Promise<boolean> => VanityEntity.put({ guildId }, { current_uses: uses }, { ifAbsent: true });

export const memberPointer = (guildId: string, memberId: string): Promise<Item | null> => MemberLatestEntity.get({ guildId, memberId });

/**
 * A use's item and the member's latest-use item naming it, as stored; the
 * latter keeps the join's identity (`joined_at` as the platform gave it;
 * none for a member already gone when checked).
 */
export function useItems(use: InviteUse, joinedAt: string | null = null): { use: Item; latest: Item } {
  return {
    use: UseEntity.item(use, useAttributes(use)),
    latest: MemberLatestEntity.item({ guildId: use.guild_id, memberId: use.member_id }, latestAttributes(use, joinedAt)),
  };
}

/**
 * A use's attributes: the record, when the table drops it, and its index
 * key by inviter when it has one. None by member: the member's pointer
 * finds their latest use (see the top of this file).
 */
const useAttributes = (use: InviteUse) => ({
  ...use,
  expires_at: Math.floor(Date.parse(use.timestamp) / 1000) + USE_TTL_SECONDS,
  ...(use.inviter_id ? { gsi1pk: inviterIndex(use.guild_id, use.inviter_id), gsi1sk: use.timestamp } : {}),
});

/** The member index's key of a use: what a use gets once it is not the member's latest. */
const memberIndexKey = (use: Pick<InviteUse, 'guild_id' | 'member_id' | 'timestamp'>) => ({
  gsi2pk: memberIndex(use.guild_id, use.member_id),
  gsi2sk: use.timestamp,
});

/** The attributes of the member's latest-use item naming `use`. */
const latestAttributes = (use: InviteUse, joinedAt: string | null) => ({
  use_sk: UseEntity.key(use).sk,
  expires_at: Math.floor(Date.parse(use.timestamp) / 1000) + USE_TTL_SECONDS,
  ...(joinedAt === null ? {} : { joined_at: joinedAt }),
});

/** The use stored under sort key `sk` (a pointer's `use_sk`): its guild, time and record ID; null for a key no use has. */
function useAt(guildId: string, sk: string): Pick<InviteUse, 'guild_id' | 'timestamp' | 'id'> | null {
  const rest = sk.slice(UseEntity.prefix.length);
  const bar = rest.lastIndexOf('#');
  const fields = { guild_id: guildId, timestamp: rest.slice(0, bar), id: Number(rest.slice(bar + 1)) };
  return sk.startsWith(UseEntity.prefix) && UseEntity.key(fields).sk === sk ? fields : null;
}

/** What {@link recordUse} did: recorded the use; found the join recorded already; or lost the increment it claimed to another join. */
export type Recorded = 'recorded' | 'repeat' | 'claim-lost';

/**
 * Records a join's use, the increment it claims (`claim`, none for an
 * unknown join) and the member's pointer naming it, all or none, in one
 * transaction. The pointer's write is the one conditional write that makes
 * a join one use: it holds only while the pointer names no join of this
 * identity (`joinedAt`; for a member gone when checked, while it names no
 * use), or names one stored before `dataSince` (the module's data was
 * deleted since: the guild reads as reset). The pointer is the last action,
 * so no read ever sees a pointer whose use is not there.
 *
 * `previousSk`: the use the pointer named before, a join of the member's
 * that this one ends (a member who joins again left before, reported or
 * not): in the same transaction it is marked left and gets its member
 * index key, as the pointer no longer finds it. One gone meanwhile (its
 * time ran out, or removed) is left alone.
 */
export async function recordUse(
  use: InviteUse,
  joinedAt: string | null,
  claim: TransactAction | null,
  dataSince: string | undefined,
  previousSk: string | null = null,
): Promise<Recorded> {
  const unrecorded: Condition[] = joinedAt === null ? [{ use_sk: { exists: false } }] : [{ joined_at: { exists: false } }, { joined_at: { ne: joinedAt } }];
  const reset: Condition[] = dataSince === undefined ? [] : [{ use_sk: { lt: usesFrom(dataSince) } }];
  const previous = previousSk === null ? null : useAt(use.guild_id, previousSk);
  const actions = [
    UseEntity.tx.put(use, useAttributes(use), { ifAbsent: true }),
    ...(claim ? [claim] : []),
    ...(previous
      ? [
          UseEntity.tx.update(previous, {
            set: { has_left: true, ...memberIndexKey({ ...previous, member_id: use.member_id }) },
            condition: { pk: { exists: true } },
          }),
        ]
      : []),
    MemberLatestEntity.tx.put({ guildId: use.guild_id, memberId: use.member_id }, latestAttributes(use, joinedAt), {
      condition: { $or: [...unrecorded, ...reset] },
    }),
  ];
  const failed = await transact(
    actions,
    `Joins of guild ${use.guild_id} kept colliding while member ${use.member_id}'s join was recorded; try the check again.`,
  );
  if (failed === null) return 'recorded';
  if (previous && failed === actions.length - 2) return recordUse(use, joinedAt, claim, dataSince, null);
  return failed === actions.length - 1 ? 'repeat' : 'claim-lost';
}

/** The member's latest use, read strongly consistently through their pointer item. */
export async function latestUseOf(guildId: string, memberId: string): Promise<InviteUse | null> {
  const pointer = await memberPointer(guildId, memberId);
  return pointer ? ((await useOfPointer(guildId, pointer))?.use ?? null) : null;
}

/** The use a member's pointer item (read already) names, and whether its join message was posted. */
export async function useOfPointer(guildId: string, pointer: Item): Promise<{ use: InviteUse; posted: boolean } | null> {
  const fields = typeof pointer.use_sk === 'string' ? useAt(guildId, pointer.use_sk) : null;
  const use = fields && (await UseEntity.get(fields));
  return use ? { use, posted: pointer.join_posted === true } : null;
}

/** Notes that the join message of the member's latest use was posted, so a retried check does not post it again. */
export async function markJoinPosted(use: InviteUse): Promise<void> {
  await MemberLatestEntity.update(
    { guildId: use.guild_id, memberId: use.member_id },
    { set: { join_posted: true }, condition: { use_sk: UseEntity.key(use).sk }, returnValues: 'NONE' },
  );
}

export const markLeft = (use: InviteUse): Promise<void> => markLeftAt(use.guild_id, UseEntity.key(use).sk);

/** Marks the use stored under sort key `sk` left; one removed already is left alone. */
async function markLeftAt(guildId: string, sk: string): Promise<void> {
  const fields = useAt(guildId, sk);
  if (fields) await UseEntity.update(fields, { set: { has_left: true }, condition: { pk: { exists: true } }, returnValues: 'NONE' });
}

/** Uses attributed to an inviter (gsi1), newest first. */
export const usesByInviter = (guildId: string, inviterId: string): Promise<InviteUse[]> =>
  UseEntity.index('gsi1').query({ guildId, inviterId }, { reverse: true });

/** One page of the counted uses attributed to an inviter (gsi1), newest first, from where `page.cursor` says. */
export async function countedUsesPage(guildId: string, inviterId: string, page: { limit: number; cursor?: string }) {
  const scope = { guildId, family: 'invite-tracker/stats/uses', filter: { inviter_id: inviterId } };
  const { items, next_cursor } = await readKeyPage(UseEntity.index('gsi1'), { guildId, inviterId }, page, { scope, reverse: true, filter: { counted: true } });
  return { uses: items, next_cursor };
}

/** Uses where the member joined: their latest through their pointer, the earlier ones through the member index (gsi2). */
export async function usesOfMember(guildId: string, memberId: string): Promise<InviteUse[]> {
  const [earlier, latest] = await Promise.all([UseEntity.index('gsi2').query({ guildId, memberId }), latestUseOf(guildId, memberId)]);
  return latest && !earlier.some((u) => u.id === latest.id) ? [...earlier, latest] : earlier;
}

/**
 * Deletes these uses (of one guild) and the members' pointers naming one of
 * them: a pointer naming a use kept is kept, since it alone finds that use.
 */
export async function deleteUses(uses: InviteUse[]): Promise<void> {
  const guildId = uses[0]!.guild_id;
  const byMember = new Map<string, Condition[]>();
  for (const use of uses) byMember.set(use.member_id, [...(byMember.get(use.member_id) ?? []), { use_sk: UseEntity.key(use).sk }]);
  await Promise.all([
    UseEntity.deleteMany(uses),
    ...[...byMember].map(([memberId, named]) => MemberLatestEntity.delete({ guildId, memberId }, { condition: { $or: named } })),
  ]);
}

/** The module's range in the guild's partition: every item's sort key starts with `INVITE`. */
export const moduleRange = (guildId: string) => ({ pk: guildKey(guildId), prefix: MODULE_PREFIX });

/**
 * The invites and the vanity URL's count of a guild (a few: the platform
 * keeps at most 1000 invites), removed before a settings delete answers;
 * answers the invites.
 */
export async function deleteInvitesOf(guildId: string): Promise<Invite[]> {
  const invites = await listInvites(guildId);
  await Promise.all([InviteEntity.deleteMany(invites.map((i) => ({ guildId, code: i.invite_id }))), VanityEntity.deleteMany([{ guildId }])]);
  return invites;
}

/**
 * What a removal behind a settings delete at `cutoff` deletes of a page of
 * the module's range: the uses stored before it, and the members' latest
 * uses still naming such a use (a pointer a join after the delete wrote
 * again stays). Invites and the vanity URL's
 * count were removed before the answer; those stored since stay.
 */
export function removedBefore(guildId: string, cutoff: string, items: Item[]): Selected[] {
  const old = usesFrom(cutoff);
  return items.flatMap((item): Selected[] => {
    const sk = String(item.sk);
    if (UseEntity.holds(item)) return sk < old ? [{ pk: guildKey(guildId), sk }] : [];
    if (!MemberLatestEntity.holds(item)) return [];
    return [
      {
        key: { pk: guildKey(guildId), sk },
        condition: { $or: [{ use_sk: { exists: false } }, { use_sk: { lt: old } }] },
      },
    ];
  });
}
