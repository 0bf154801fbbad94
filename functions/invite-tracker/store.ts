/**
 * The invite tracker's table access: the only file issuing its commands.
 * In the guild's partition:
 *
 * | item          | sk                          | holds                                                  |
 * |---------------|-----------------------------|--------------------------------------------------------|
 * | invite        | `INVITE#<code>`             | the record; `current_uses` = uses claimed by joins      |
 * | vanity        | `INVITEVANITY`              | the vanity URL's uses claimed by joins                  |
 * | use           | `INVITEUSE#<time>#<id>`     | the record (31 days); gsi1 by inviter, gsi2 by member   |
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
 */
import { GetCommand, PutCommand, UpdateCommand, type NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { deleteKeys } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { conditional } from '#shared/db/errors.js';
import { transact } from '#shared/db/transact.js';
import { queryAfterCursor, queryAll } from '#shared/db/pagination.js';
import { entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { guildKey } from '#shared/modules/store.js';
import type { Selected } from '#shared/scheduler/removal.js';

type Item = Record<string, NativeAttributeValue>;

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

const inviterIndex = partition<[guildId: string, inviterId: string]>('INVUSE#');
const memberIndex = partition<[guildId: string, memberId: string]>('INVUSEM#');

export async function listInvites(guildId: string): Promise<Invite[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':p': InviteEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(InviteEntity.parse);
}

/** Records an invite the service does not track yet; false when it already does. */
export function insertInvite(invite: Invite): Promise<boolean> {
  return conditional(() =>
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: InviteEntity.item({ guildId: invite.guild_id, code: invite.invite_id }, invite),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * The claim of increment `n` of an invite's uses, as an action of the join's
 * transaction ({@link recordUse}): `current_uses` from n - 1 to n.
 */
export function inviteUseClaim(guildId: string, code: string, n: number): Item {
  return {
    Update: {
      TableName: tableName(),
      Key: InviteEntity.key({ guildId, code }),
      UpdateExpression: 'SET current_uses = :n',
      ConditionExpression: 'current_uses = :before',
      ExpressionAttributeValues: { ':n': n, ':before': n - 1 },
    },
  };
}

export async function updateInvite(guildId: string, code: string, fields: Partial<Invite>): Promise<void> {
  const entries = Object.entries(fields);
  if (entries.length === 0) return;
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: InviteEntity.key({ guildId, code }),
        UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], i) => [`:f${i}`, value])),
      }),
    ),
  );
}

/** The vanity URL's uses claimed by joins so far. */
export async function claimedVanityUses(guildId: string): Promise<number | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: VanityEntity.key({ guildId }), ConsistentRead: true }));
  return out.Item ? VanityEntity.parse(out.Item) : null;
}

/** The claim of increment `n` of the vanity URL's uses, as an action of the join's transaction. */
export function vanityUseClaim(guildId: string, n: number): Item {
  return {
    Put: {
      TableName: tableName(),
      Item: VanityEntity.item({ guildId }, { current_uses: n }),
      ConditionExpression: 'current_uses = :before',
      ExpressionAttributeValues: { ':before': n - 1 },
    },
  };
}

export function setVanityBaseline(guildId: string, uses: number): Promise<boolean> {
  return conditional(() =>
    db().send(
      new PutCommand({ TableName: tableName(), Item: VanityEntity.item({ guildId }, { current_uses: uses }), ConditionExpression: 'attribute_not_exists(pk)' }),
    ),
  );
}

export async function memberPointer(guildId: string, memberId: string): Promise<Item | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: MemberLatestEntity.key({ guildId, memberId }), ConsistentRead: true }));
  return out.Item ?? null;
}

/**
 * A use's item and the member's latest-use item naming it, as stored; the
 * latter keeps the join's identity (`joined_at` as the platform gave it;
 * none for a member already gone when checked).
 */
export function useItems(use: InviteUse, joinedAt: string | null = null): { use: Item; latest: Item } {
  const item = UseEntity.item(use, {
    ...use,
    expires_at: Math.floor(Date.parse(use.timestamp) / 1000) + USE_TTL_SECONDS,
    gsi2pk: memberIndex(use.guild_id, use.member_id),
    gsi2sk: use.timestamp,
  });
  if (use.inviter_id) Object.assign(item, { gsi1pk: inviterIndex(use.guild_id, use.inviter_id), gsi1sk: use.timestamp });
  const latest = MemberLatestEntity.item(
    { guildId: use.guild_id, memberId: use.member_id },
    { use_sk: item.sk, expires_at: item.expires_at, ...(joinedAt === null ? {} : { joined_at: joinedAt }) },
  );
  return { use: item, latest };
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
 */
export async function recordUse(use: InviteUse, joinedAt: string | null, claim: Item | null, dataSince: string | undefined): Promise<Recorded> {
  const items = useItems(use, joinedAt);
  const values: Item = {};
  let condition = joinedAt === null ? 'attribute_not_exists(use_sk)' : 'attribute_not_exists(joined_at) OR joined_at <> :j';
  if (joinedAt !== null) values[':j'] = joinedAt;
  if (dataSince !== undefined) {
    condition += ' OR use_sk < :old';
    values[':old'] = usesFrom(dataSince);
  }
  const actions: Item[] = [
    { Put: { TableName: tableName(), Item: items.use, ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(claim ? [claim] : []),
    {
      Put: {
        TableName: tableName(),
        Item: items.latest,
        ConditionExpression: condition,
        ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      },
    },
  ];
  const failed = await transact(
    actions,
    `Joins of guild ${use.guild_id} kept colliding while member ${use.member_id}'s join was recorded; try the check again.`,
  );
  if (failed === null) return 'recorded';
  return failed === actions.length - 1 ? 'repeat' : 'claim-lost';
}

/** The member's latest use, read strongly consistently through their pointer item. */
export async function latestUseOf(guildId: string, memberId: string): Promise<InviteUse | null> {
  const pointer = await memberPointer(guildId, memberId);
  return pointer ? ((await useOfPointer(guildId, pointer))?.use ?? null) : null;
}

/** The use a member's pointer item (read already) names, and whether its join message was posted. */
export async function useOfPointer(guildId: string, pointer: Item): Promise<{ use: InviteUse; posted: boolean } | null> {
  if (typeof pointer.use_sk !== 'string') return null;
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: guildKey(guildId), sk: String(pointer.use_sk) }, ConsistentRead: true }));
  return out.Item ? { use: UseEntity.parse(out.Item), posted: pointer.join_posted === true } : null;
}

/** Notes that the join message of the member's latest use was posted, so a retried check does not post it again. */
export async function markJoinPosted(use: InviteUse): Promise<void> {
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: MemberLatestEntity.key({ guildId: use.guild_id, memberId: use.member_id }),
        UpdateExpression: 'SET join_posted = :t',
        ConditionExpression: 'use_sk = :sk',
        ExpressionAttributeValues: { ':t': true, ':sk': UseEntity.key(use).sk },
      }),
    ),
  );
}

export const markLeft = (use: InviteUse): Promise<void> => markLeftAt(use.guild_id, UseEntity.key(use).sk);

/** Marks the use stored under sort key `sk` left; one removed already is left alone. */
export async function markLeftAt(guildId: string, sk: string): Promise<void> {
  await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: guildKey(guildId), sk },
        UpdateExpression: 'SET has_left = :t',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':t': true },
      }),
    ),
  );
}

/** Uses attributed to an inviter (gsi1), newest first. */
export async function usesByInviter(guildId: string, inviterId: string): Promise<InviteUse[]> {
  const items = await queryAll({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': inviterIndex(guildId, inviterId) },
    ScanIndexForward: false,
  });
  return items.map(UseEntity.parse);
}

/** One page of the counted uses attributed to an inviter (gsi1), newest first, from where `page.cursor` says. */
export async function countedUsesPage(guildId: string, inviterId: string, page: { limit: number; cursor?: string }) {
  const scope = { guildId, family: 'invite-tracker/stats/uses', filter: { inviter_id: inviterId } };
  const { items, next_cursor } = await queryAfterCursor(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      FilterExpression: 'counted = :t',
      ExpressionAttributeValues: { ':pk': inviterIndex(guildId, inviterId), ':t': true },
      ScanIndexForward: false,
    },
    { ...page, scope },
  );
  return { uses: items.map(UseEntity.parse), next_cursor };
}

/** Uses where the member joined (gsi2). */
export async function usesOfMember(guildId: string, memberId: string): Promise<InviteUse[]> {
  const items = await queryAll({
    IndexName: 'gsi2',
    KeyConditionExpression: 'gsi2pk = :pk',
    ExpressionAttributeValues: { ':pk': memberIndex(guildId, memberId) },
  });
  return items.map(UseEntity.parse);
}

export async function deleteUses(uses: InviteUse[]): Promise<void> {
  await deleteKeys([
    ...uses.map(UseEntity.key),
    ...[...new Set(uses.map((u) => u.member_id))].map((m) => MemberLatestEntity.key({ guildId: uses[0]!.guild_id, memberId: m })),
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
  await deleteKeys([...invites.map((i) => InviteEntity.key({ guildId, code: i.invite_id })), VanityEntity.key({ guildId })]);
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
