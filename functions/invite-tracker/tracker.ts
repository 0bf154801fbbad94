/**
 * The invite tracker (behaviour §12): invites made through the service or
 * reported by the bot, and every join attributed as honestly as the
 * platform's counts allow.
 *
 * A join compares the platform's invite uses (and the vanity URL's) with the
 * uses already claimed by earlier joins, and claims one increment with a
 * conditional write:
 * - exactly one invite has unclaimed uses: `exact`, to its owner (N joins
 *   through one invite checked at once claim N increments, each exact);
 * - several have: `ambiguous`, one increment claimed, no inviter named;
 * - none, but a single-use invite gone from the platform's list (its one
 *   use removes it; its delete event may come later, or was within 60 s):
 *   `exact`;
 * - the vanity URL's uses went up: `vanity`; else `unknown`. Its uses are
 *   read only then: a join an invite explains makes no vanity URL call.
 *
 * A join's identity is the member's `joined_at` as the platform gives it
 * (one read of the member a check): a check whose member's pointer names
 * that `joined_at` already is the same join retried or redelivered, and a
 * member who left (reported or not) and joined again is a new join, however
 * soon. No time decides. The use, its increment and the pointer are
 * written in one transaction, conditional on the pointer not naming the
 * join yet, so two deliveries of one join at once record it once: the
 * other finds it recorded. The join message carries a nonce of its use that
 * the platform enforces, and the pointer notes the post: a check retried
 * after a failed post (a 502) posts the message once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseFailed, notFound } from '#shared/errors.js';
import { nextRecordId, recordIdAhead } from '#shared/db/record-ids.js';
import type { TransactAction } from '#shared/db/transact.js';
import { requireEnabled, requireEnabledWhile, requireEnabledWith, requireEnabledWithState } from '#shared/modules/state.js';
import type { ModuleStateItem } from '#shared/modules/store.js';
import { isPlatformError, isPlatformNotFound, platform } from '#shared/platform/client.js';
import type { GuildMember, User } from '#shared/platform/types.js';
import { type TemplateVariables, memberVariables, renderMessage } from '#shared/templates/index.js';
import { guildNamedIfUsed } from '#shared/templates/members.js';
import {
  type Invite,
  type InviteUse,
  type Recorded,
  claimedVanityUses,
  insertInvite,
  InviteEntity,
  inviteUseClaim,
  latestUseOf,
  listInvites,
  markJoinPosted,
  markLeft,
  MemberLatestEntity,
  memberPointer,
  recordUse,
  setVanityBaseline,
  updateInvite,
  usesFrom,
  useOfPointer,
  vanityUseClaim,
  countedUsesPage,
  storedSince,
  usesByInviter,
} from './store.js';

export const MODULE = 'invite-tracker';
const DELETED_CANDIDATE_MS = 60_000;
const COUNT_WINDOW_MS = 31 * 24 * 3600 * 1000;
/** Joins racing for increments each retry after losing one; as many as may arrive at once. */
const MAX_ATTEMPTS = 50;

export const inviteUrl = (code: string) => `${(process.env.INVITE_BASE_URL || 'https://discord.gg').replace(/\/$/, '')}/${code}`;

/** The invite's API record (behaviour §11). */
export function inviteRecord(invite: Invite) {
  const { _deleted_at: _d, _created_at: _c, ...record } = invite;
  return record;
}

/** Newest first (behaviour §11): by when the platform made them, record ids (not in time order) only breaking ties. */
export const newestFirst = (a: Invite, b: Invite) => (b._created_at ?? '').localeCompare(a._created_at ?? '') || b.id - a.id;

interface PlatformInvite {
  code: string;
  uses?: number;
  max_uses?: number;
  expires_at?: string | null;
  created_at?: string;
  inviter?: { id: string };
  channel?: { id: string } | null;
}

function fromPlatform(guildId: string, id: number, invite: PlatformInvite, claimedUses: number): Invite {
  return {
    id,
    guild_id: guildId,
    invite_id: invite.code,
    channel_id: invite.channel?.id ?? null,
    current_uses: claimedUses,
    max_uses: invite.max_uses ?? 0,
    expires_at: invite.expires_at ?? null,
    owner_id: invite.inviter?.id ?? null,
    _deleted_at: null,
    _created_at: invite.created_at ?? new Date().toISOString(),
  };
}

/** The vanity URL, or null when the guild has none (or the platform will not say). */
async function vanityOf(guildId: string): Promise<{ code: string; uses: number } | null> {
  try {
    const vanity = await platform.getVanityUrl(guildId);
    return vanity.code ? { code: vanity.code, uses: vanity.uses } : null;
  } catch (error) {
    if (isPlatformError(error) && (error.platformStatus === 403 || error.platformStatus === 404)) return null;
    throw error;
  }
}

export async function createInvite(
  guildId: string,
  input: { channel_id: string; max_uses: number; max_age: number; is_temporary: boolean },
  ownerId: string | null,
) {
  const id = recordIdAhead('invite-tracker.invite');
  await requireEnabled(guildId, MODULE);
  const made = (await platform.createChannelInvite(input.channel_id, {
    max_age: input.max_age,
    max_uses: input.max_uses,
    temporary: input.is_temporary,
    unique: true,
  })) as PlatformInvite;
  const invite = { ...fromPlatform(guildId, await id, made, made.uses ?? 0), owner_id: ownerId ?? made.inviter?.id ?? null, channel_id: input.channel_id };
  await insertInvite(invite);
  return { invite_code: made.code, invite_url: inviteUrl(made.code), invite: inviteRecord(invite) };
}

export async function deleteInvite(guildId: string, code: string) {
  await requireEnabled(guildId, MODULE);
  try {
    await platform.deleteInvite(code);
  } catch (error) {
    if (isPlatformNotFound(error)) throw notFound(`There is no invite ${code} on the platform.`);
    throw error;
  }
  // Conditional on the invite being tracked: an untracked one is left alone, without reading it first.
  await updateInvite(guildId, code, { _deleted_at: Date.now() });
  return { message: `Invite ${code} was deleted.` };
}

export async function listInviteRecords(guildId: string) {
  const [, invites] = await requireEnabledWhile(guildId, MODULE, () => listInvites(guildId));
  return {
    invites: invites
      .filter((i) => i._deleted_at === null)
      .sort(newestFirst)
      .map(inviteRecord),
  };
}

/** `/events/invite/create`: records an invite made on the platform, with its owner, uses and expiry as the platform lists them. */
export async function inviteCreated(guildId: string, code: string, channelId: string) {
  const id = recordIdAhead('invite-tracker.invite');
  await requireEnabled(guildId, MODULE);
  const found = ((await platform.getGuildInvites(guildId)) as PlatformInvite[]).find((i) => i.code === code);
  if (!found) throw notFound(`The platform lists no invite ${code} in guild ${guildId}.`);
  const created = await insertInvite({ ...fromPlatform(guildId, await id, found, found.uses ?? 0), channel_id: found.channel?.id ?? channelId });
  return { message: created ? `Invite ${code} is tracked.` : `Invite ${code} was tracked already.` };
}

/** `/events/invite/delete`: the invite stays a candidate for 60 s, since a single-use invite disappears on its use. */
export async function inviteDeleted(guildId: string, code: string) {
  if (!(await requireEnabledWith(guildId, MODULE, InviteEntity, { guildId, code }))) return { message: `Invite ${code} was not tracked; nothing to mark.` };
  await updateInvite(guildId, code, { _deleted_at: Date.now() });
  return { message: `Invite ${code} is marked deleted.` };
}

/**
 * A single-use invite missing from the platform's list may have gone on its
 * one use: whether its delete event came within 60 s or has not come yet
 * (the join check usually comes first). One deleted earlier, or expired
 * more than 60 s ago, went without a use.
 */
function goneOnItsUse(invite: Invite, now: number): boolean {
  if (invite._deleted_at !== null) return now - invite._deleted_at < DELETED_CANDIDATE_MS;
  return invite.expires_at === null || now - Date.parse(invite.expires_at) < DELETED_CANDIDATE_MS;
}

interface Attribution {
  attribution: InviteUse['attribution'];
  invite: Invite | null;
}

/** Records the join as attributed, with the increment it claims (a transaction action; null when it claims none). */
type Commit = (found: Attribution, claim: TransactAction | null) => Promise<Recorded>;

/**
 * Finds the increment this join made and records the join with its claim
 * (`commit`); see the top of this file. Answers whether the join was
 * recorded here or found recorded already.
 */
async function attribute(guildId: string, invites: Promise<PlatformInvite[]>, commit: Commit): Promise<'recorded' | 'repeat'> {
  const live = await invites;
  const liveCodes = new Set(live.map((i) => i.code));
  // Read only when no invite explains the join: a join through an invite (most) needs no vanity URL, and one call less.
  let vanityRead: Promise<{ code: string; uses: number } | null> | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const recorded = new Map((await listInvites(guildId)).map((i) => [i.invite_id, i]));
    // Invites made while nothing told the service: their uses so far belong to no join it will see.
    for (const invite of live.filter((i) => !recorded.has(i.code))) {
      const record = fromPlatform(guildId, await nextRecordId('invite-tracker.invite'), invite, invite.uses ?? 0);
      if (await insertInvite(record)) recorded.set(record.invite_id, record);
    }
    let done: Recorded;
    const candidates = live.filter((i) => (i.uses ?? 0) > (recorded.get(i.code)?.current_uses ?? Number.POSITIVE_INFINITY));
    const now = Date.now();
    const deleted = [...recorded.values()].filter((i) => !liveCodes.has(i.invite_id) && i.max_uses === 1 && i.current_uses < 1 && goneOnItsUse(i, now));
    if (candidates.length > 0) {
      const target = recorded.get(candidates[0]!.code)!;
      const found: Attribution = candidates.length === 1 ? { attribution: 'exact', invite: target } : { attribution: 'ambiguous', invite: null };
      done = await commit(found, inviteUseClaim(guildId, target.invite_id, target.current_uses + 1));
    } else if (deleted.length > 0) {
      const found: Attribution = deleted.length === 1 ? { attribution: 'exact', invite: deleted[0]! } : { attribution: 'ambiguous', invite: null };
      done = await commit(found, inviteUseClaim(guildId, deleted[0]!.invite_id, 1));
    } else {
      vanityRead ??= vanityOf(guildId);
      const vanity = await vanityRead;
      const claimed = vanity && (await claimedVanityUses(guildId));
      if (vanity && claimed === null) {
        // First sight of the vanity URL: its uses so far are the baseline, not this join's.
        await setVanityBaseline(guildId, vanity.uses);
        done = await commit({ attribution: 'unknown', invite: null }, null);
      } else if (vanity && typeof claimed === 'number' && vanity.uses > claimed) {
        done = await commit({ attribution: 'vanity', invite: null }, vanityUseClaim(guildId, claimed + 1));
      } else {
        done = await commit({ attribution: 'unknown', invite: null }, null);
      }
    }
    if (done !== 'claim-lost') return done;
    await sleep(Math.random() * 20);
  }
  // Never guess: a join that could not claim an increment in time is told to try again.
  throw databaseFailed(`The invites of guild ${guildId} kept changing while this join was attributed; try the check again.`);
}

/** The inviter's counted joins of the last 31 days (since the module's data was deleted, `dataSince`) that have not left. */
async function inviteCount(guildId: string, inviterId: string, current: InviteUse, dataSince: string | undefined): Promise<number> {
  const since = Date.now() - COUNT_WINDOW_MS;
  const uses = (await usesByInviter(guildId, inviterId)).filter(
    (u) => u.counted && !u.has_left && Date.parse(u.timestamp) >= since && storedSince(u, dataSince) && u.id !== current.id,
  );
  return uses.length + (current.counted && !current.has_left ? 1 : 0);
}

/**
 * Posts the join or leave message when the settings ask for one; the member
 * is read only then (a member gone already: no message). A join message
 * carries a nonce of its use that the platform enforces: posted again by a
 * retried check, it is not doubled.
 */
async function postMessage(
  guildId: string,
  state: ModuleStateItem,
  which: 'join' | 'leave',
  use: InviteUse | null,
  memberOf: () => Promise<User & { nick?: string | null }>,
): Promise<boolean> {
  const settings = state.settings ?? {};
  const channel = settings[`${which}_messages_channel`];
  const content = settings[`${which}_message_content`];
  if (settings[`${which}_messages_enabled`] !== true || typeof channel !== 'string' || typeof content !== 'string') return false;
  let member: User & { nick?: string | null };
  try {
    member = await memberOf();
  } catch (error) {
    if (isPlatformNotFound(error)) return false;
    throw error;
  }
  const guild = await guildNamedIfUsed(guildId, content);
  const variables: TemplateVariables = {
    ...memberVariables(member, guild),
    inviter_mention: use?.inviter_id ? `<@${use.inviter_id}>` : 'someone unknown',
    inviter_id: use?.inviter_id ?? 'unknown',
    invite_code: use?.invite_id ?? (use?.attribution === 'vanity' ? 'vanity URL' : 'unknown'),
    current_invite_count: use?.inviter_id ? await inviteCount(guildId, use.inviter_id, use, state.data_since) : 0,
  };
  const message = renderMessage(content, settings[`${which}_message_is_embed`] === true, variables, { users: [member.id] });
  await platform.createMessage(channel, which === 'join' && use ? { ...message, nonce: `invite-join-${use.id}`, enforce_nonce: true } : message);
  return true;
}

type PlatformMember = GuildMember & { user: User; joined_at?: string | null };

/** The member as the platform has them now; null when they are in the guild no more. */
async function currentMember(guildId: string, memberId: string): Promise<PlatformMember | null> {
  try {
    return (await platform.getMember(guildId, memberId)) as PlatformMember;
  } catch (error) {
    if (isPlatformNotFound(error)) return null;
    throw error;
  }
}

/** Whether the platform time `a` is later than `b`; false when either cannot be read. */
const laterThan = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/** The join a check found recorded already (its use, null if removed since), and whether its message was posted. */
async function recordedJoin(guildId: string, memberId: string, pointer: Record<string, unknown> | null) {
  const current = pointer ?? (await memberPointer(guildId, memberId));
  return current ? await useOfPointer(guildId, current) : null;
}

/**
 * `/events/join/check-invite` (acting member: who joined). The join is the
 * member's `joined_at`; a member the platform no longer lists has none to
 * tell one join from another, so their check is taken as a repeat of their
 * latest recorded join, or, with none, as a join of its own (marked left).
 */
export async function checkJoin(guildId: string, memberId: string) {
  // From this process's block of ids: a join writes no counter of its own.
  const id = recordIdAhead('invite-tracker.use', true);
  // The member and the guild's invites read at once beside the module state (one platform round, not two), settled here so a
  // disabled module's 409 is not left unhandled behind them. A repeat or a disabled module reads the invites for nothing: rare,
  // as the bot calls enabled modules only and repeats are retries.
  const memberRead = currentMember(guildId, memberId).then(
    (member) => ({ member }),
    (error: unknown) => ({ error }),
  );
  const invites = platform.getGuildInvites(guildId) as Promise<PlatformInvite[]>;
  invites.catch(() => undefined);
  const { state, record: pointer } = await requireEnabledWithState(guildId, MODULE, MemberLatestEntity, { guildId, memberId });
  const read = await memberRead;
  if ('error' in read) throw read.error;
  const { member } = read;
  const settings = state.settings ?? {};
  const joinedAt = member ? String(member.joined_at ?? '') : null;
  // Whether the pointer names a join still on record: one stored before the module's data was deleted reads as never recorded.
  const usePointed = pointer && typeof pointer.use_sk === 'string' && (state.data_since === undefined || pointer.use_sk >= usesFrom(state.data_since));
  const pointedJoin = usePointed && typeof pointer.joined_at === 'string' ? pointer.joined_at : null;
  if (joinedAt !== null && pointedJoin !== null && pointedJoin !== joinedAt && laterThan(pointedJoin, joinedAt)) {
    // This check read the member before a later join of theirs was recorded: that one is the member's, not a new one.
    return { message: `Member ${memberId} joined again (at ${pointedJoin}) since this check read their join (at ${joinedAt}); nothing more is recorded.` };
  }
  let join: { use: InviteUse; posted: boolean } | null;
  if (joinedAt === null ? usePointed : pointedJoin === joinedAt) {
    join = await recordedJoin(guildId, memberId, pointer);
  } else {
    let use: InviteUse | null = null;
    const commit: Commit = async ({ attribution, invite }, claim) => {
      const inviterId = invite?.owner_id ?? null;
      use = {
        id: await id,
        guild_id: guildId,
        invite_id: invite?.invite_id ?? null,
        member_id: memberId,
        timestamp: new Date().toISOString(),
        channel_id: invite?.channel_id ?? null,
        inviter_id: inviterId,
        has_left: member === null,
        attribution,
        counted: !(settings.prevent_own_invite_code === true && inviterId === memberId),
      };
      // A member who joins again left the join before, whether or not the leave was reported: marked in the same transaction.
      const done = await recordUse(use, joinedAt, claim, state.data_since, member && usePointed ? String(pointer.use_sk) : null);
      if (done !== 'claim-lost') return done;
      // Lost the increment, perhaps to another delivery of this same join that recorded it meanwhile.
      const now = await memberPointer(guildId, memberId);
      return now && (joinedAt === null ? typeof now.use_sk === 'string' : now.joined_at === joinedAt) && now.use_sk !== pointer?.use_sk ? 'repeat' : done;
    };
    const recorded = (await attribute(guildId, invites, commit)) === 'recorded' ? (use as InviteUse | null) : null;
    join = recorded ? { use: recorded, posted: false } : await recordedJoin(guildId, memberId, null);
  }
  if (!join) return { message: `Member ${memberId}'s join was recorded already.` };
  const { use } = join;
  let posted = join.posted;
  if (!posted && member) {
    posted = await postMessage(guildId, state, 'join', use, async () => ({ ...member.user, nick: member.nick ?? null }));
    if (posted) await markJoinPosted(use);
  }
  const by = use.inviter_id ? `, invited by ${use.inviter_id}` : '';
  const through = use.invite_id ? ` through invite ${use.invite_id}` : '';
  return {
    message: `Member ${memberId} joined: ${use.attribution}${through}${by}${use.counted ? '' : ' (their own invite: not counted)'}${member ? '' : ' (no longer in the guild)'}.${posted ? ' The join message was posted.' : ''}`,
  };
}

/** `/events/leave/check-invite` (acting member: who left). */
export async function checkLeave(guildId: string, memberId: string) {
  const [state, latest] = await requireEnabledWhile(guildId, MODULE, () => latestUseOf(guildId, memberId));
  // A join stored before the module's data was deleted is gone to every read, the leave's included.
  const use = latest && storedSince(latest, state.data_since) ? latest : null;
  if (use) await markLeft(use);
  const posted = await postMessage(guildId, state, 'leave', use ? { ...use, has_left: true } : null, async () => (await platform.getUser(memberId)) as User);
  return {
    message: `Member ${memberId} left${use ? `; their join through ${use.invite_id ?? use.attribution} is marked as left` : '; no join of theirs is recorded'}.${posted ? ' The leave message was posted.' : ''}`,
  };
}

/** `GET /stats/uses`: the counted uses attributed to an inviter, newest first, up to `limit` a page (behaviour §15). */
export async function usesOf(guildId: string, inviterId: string, page: { limit: number; cursor?: string }) {
  const [state, { uses, next_cursor }] = await requireEnabledWhile(guildId, MODULE, () => countedUsesPage(guildId, inviterId, page));
  // Newest first: past the first use stored before the module's data was deleted, every use is older.
  const live = uses.filter((use) => storedSince(use, state.data_since));
  return { stats_uses: live, next_cursor: live.length < uses.length ? null : next_cursor };
}
