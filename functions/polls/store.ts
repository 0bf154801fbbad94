/**
 * The polls module's DynamoDB access: the only file issuing its commands.
 * Every change is one conditional write: a poll's fields under its `version`, a member's
 * votes under their voter item's `version` with the poll's counts in the same transaction, the message render under a lease
 * on the poll item. Beside each poll, its list pointer (`PollListEntity`),
 * written after it and deleted after it.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { deleteKeys, getKeys, getNamed, putItems } from '#shared/db/batch.js';
import { db } from '#shared/db/client.js';
import { isConditionFailed } from '#shared/db/errors.js';
import { countAll, queryAll, queryPage } from '#shared/db/pagination.js';
import { tableName } from '#shared/db/table.js';
import { transact } from '#shared/db/transact.js';
import { type ModuleStateItem, guildKey, moduleStateKey } from '#shared/modules/store.js';
import type { DueItem } from '#shared/scheduler/index.js';
import type { Item, Key } from '#shared/db/entity.js';
import { PollEntity, PollListEntity, PollMessageEntity, VoterEntity, countAttributes, listedKey, votersPartition } from './keys.js';
import { type MemberVotes, type Poll, type PollCounts, type Voter, countChange, countsOf } from './model.js';

/** A poll item read back (the render lease and other bookkeeping left out), or null for none. */
export const pollOf = (item: Item | null | undefined): Poll | null => (item ? PollEntity.parse(item) : null);

/** Aliases every attribute name an expression uses, so reserved words (`status`, `language`) need no care. */
function aliases(fields: string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [`#${field}`, field]));
}

async function conditional<T>(write: () => Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}

export async function getPoll(guildId: string, pollId: string): Promise<Poll | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PollEntity.key({ guildId, pollId }), ConsistentRead: true }));
  return pollOf(out.Item);
}

/**
 * Everything a vote on a known poll decides on, in one batch read: the
 * module state, the poll, the member's voter item (so the vote's conditional
 * write goes first time, a moved vote too) and the poll's pending message
 * refresh (a vote landing well before it runs needs not ask for another).
 */
export async function getVoteContext(
  guildId: string,
  pollId: string,
  memberId: string,
  refreshKey: Key,
): Promise<{ state: ModuleStateItem | null; poll: Poll | null; voter: Voter | null; refresh: DueItem | null }> {
  const found = await getNamed({
    state: moduleStateKey(guildId, 'polls'),
    poll: PollEntity.key({ guildId, pollId }),
    voter: VoterEntity.key({ guildId, pollId, memberId }),
    refresh: refreshKey,
  });
  return {
    state: found.state as ModuleStateItem | null,
    poll: pollOf(found.poll),
    voter: found.voter && VoterEntity.parse(found.voter),
    refresh: found.refresh as DueItem | null,
  };
}

/**
 * The poll whose message this is, in this guild: the message's pointer item,
 * then the poll, both read strongly consistently (a vote right after the
 * poll was posted must find it). A pointer whose poll is gone answers null.
 */
export async function findPollByMessage(guildId: string, channelId: string, messageId: string): Promise<Poll | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: PollMessageEntity.key({ guildId, channelId, messageId }), ConsistentRead: true }));
  return out.Item ? getPoll(guildId, PollMessageEntity.parse(out.Item)) : null;
}

const guildRange = (guildId: string, prefix: string) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': prefix },
  ConsistentRead: true,
});

/**
 * How many polls the guild has (COUNT queries). When the polls and their
 * list pointers do not agree in number (polls stored before pointers were
 * kept, or a crash between a poll's write and its pointer's), the pointers
 * are put right first (`reconcileList`), once.
 */
export async function countPolls(guildId: string): Promise<number> {
  const [total, listed] = await Promise.all([countAll(guildRange(guildId, PollEntity.prefix)), countAll(guildRange(guildId, PollListEntity.prefix))]);
  if (total !== listed) await reconcileList(guildId);
  return total;
}

/** A poll as its list reads it: the poll and the sort key of its list pointer, where a page ending at it is continued from. */
export interface ListedPoll {
  poll: Poll;
  place: string;
}

/**
 * One page of the guild's polls, newest first, read by key (behaviour §3.6,
 * §15): a Query of the list pointers with a limit, from after the pointer
 * `after` names (a cursor's) or else after the keys of the pages before
 * `page`, then the page's polls in one batch read. `last`: the sort key
 * of the page's last pointer when the Query stopped at its limit (the list
 * may go on from there), else null.
 */
export async function pollPage(guildId: string, page: number, pageSize: number, after: string | null): Promise<{ polls: ListedPoll[]; last: string | null }> {
  const start = after === null ? null : { pk: guildKey(guildId), sk: after };
  const { items, lastKey } = await queryPage({ ...guildRange(guildId, PollListEntity.prefix), ScanIndexForward: false }, 'pk, sk', page, pageSize, start);
  const found = new Map(
    (await getKeys(items.map((item) => PollEntity.key({ guildId, pollId: PollListEntity.parse(item) })))).map((item) => [
      String(item.poll_id),
      PollEntity.parse(item),
    ]),
  );
  const polls = items.flatMap((item) => {
    const poll = found.get(PollListEntity.parse(item));
    return poll ? [{ poll, place: String(item.sk) }] : [];
  });
  return { polls, last: lastKey === null ? null : String(items.at(-1)?.sk) };
}

/** The guild's polls, newest first, a page of `pageSize` at a time, read by key: only as many pages as the reader takes. */
export async function* pollsNewestFirst(guildId: string, pageSize: number): AsyncGenerator<Poll[]> {
  let after: string | null = null;
  do {
    const page = await pollPage(guildId, 1, pageSize, after);
    if (page.polls.length) yield page.polls.map((listed) => listed.poll);
    after = page.last;
  } while (after !== null);
}

/** Writes the pointers polls lack and deletes those whose poll is gone; answers how many are listed. */
async function reconcileList(guildId: string): Promise<number> {
  const [polls, pointers] = await Promise.all([
    queryAll({ ...guildRange(guildId, PollEntity.prefix), ProjectionExpression: 'pk, sk, guild_id, poll_id, created_at, id' }),
    queryAll({ ...guildRange(guildId, PollListEntity.prefix), ProjectionExpression: 'pk, sk' }),
  ]);
  const placed = polls.map((item) => ({ guild_id: guildId, poll_id: String(item.poll_id), created_at: String(item.created_at), id: Number(item.id) }));
  const wanted = new Map(placed.map((poll) => [listedKey(poll).sk, poll]));
  const have = new Set(pointers.map((item) => String(item.sk)));
  const missing = [...wanted].filter(([sk]) => !have.has(sk)).map(([, poll]) => listedItem(poll));
  await putItems(missing);
  await deleteKeys(pointers.filter((item) => !wanted.has(String(item.sk))).map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
  return wanted.size;
}

const listedItem = (poll: Pick<Poll, 'guild_id' | 'created_at' | 'id' | 'poll_id'>) =>
  PollListEntity.item({ guildId: poll.guild_id, createdAt: poll.created_at, id: poll.id, pollId: poll.poll_id }, { poll_id: poll.poll_id });

/** Every poll of a guild (any order). */
export async function listPolls(guildId: string): Promise<Poll[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': PollEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(PollEntity.parse);
}

/**
 * Writes a new poll; answers false when a poll with this ID exists in the
 * guild, or its message already carries another poll. The message's pointer
 * is claimed first, so two polls never share a message; a pointer left by a
 * poll that no longer exists (a crash between the two writes) is taken over.
 */
export async function insertPoll(poll: Poll): Promise<boolean> {
  if (poll.message_id && !(await claimMessage(poll.guild_id, poll.channel_id, poll.message_id, poll.poll_id))) return false;
  const { counts: _counts, ...fields } = poll;
  // A new poll's counts are complete from the start: each vote adds to them (absent attributes count 0).
  const item = PollEntity.item({ guildId: poll.guild_id, pollId: poll.poll_id }, { ...fields, [countAttributes.counted]: true });
  const done = await conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' })));
  if (done === null && poll.message_id) await releaseMessage(poll.guild_id, poll.channel_id, poll.message_id, poll.poll_id);
  // Its place in the list; a crash before this leaves the list one short, which the next page read puts right.
  if (done !== null) await db().send(new PutCommand({ TableName: tableName(), Item: listedItem(poll) }));
  return done !== null;
}

async function claimMessage(guildId: string, channelId: string, messageId: string, pollId: string): Promise<boolean> {
  const key = PollMessageEntity.key({ guildId, channelId, messageId });
  const item = PollMessageEntity.item({ guildId, channelId, messageId }, { poll_id: pollId });
  const put = (condition: string, values?: Item) =>
    conditional(() => db().send(new PutCommand({ TableName: tableName(), Item: item, ConditionExpression: condition, ExpressionAttributeValues: values })));
  if ((await put('attribute_not_exists(pk)')) !== null) return true;
  const holder = await findPollByMessage(guildId, channelId, messageId);
  if (holder) return holder.poll_id === pollId;
  const stale = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  if (!stale.Item) return (await put('attribute_not_exists(pk)')) !== null;
  return (await put('poll_id = :old', { ':old': stale.Item.poll_id })) !== null;
}

/** Drops a message's pointer if it still names this poll. */
async function releaseMessage(guildId: string, channelId: string, messageId: string, pollId: string): Promise<void> {
  await conditional(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: PollMessageEntity.key({ guildId, channelId, messageId }),
        ConditionExpression: 'poll_id = :p',
        ExpressionAttributeValues: { ':p': pollId },
      }),
    ),
  );
}

/** No close under way (`Poll.closing_at`): absent, or 0 once a close by request was undone. */
const NOT_CLOSING = '(attribute_not_exists(#closing_at) OR #closing_at = :notClosing)';

/** What a conditional poll change requires of the stored poll. */
export interface PollExpectation {
  version?: number;
  status?: Poll['status'];
  /** No close under way (`closing_at` absent or 0). */
  notClosing?: boolean;
}

/**
 * Changes some of a poll's fields (null removes nothing: it stores null),
 * bumping its version; answers the new poll, or null when the poll is gone or
 * does not match `expect`.
 */
export async function updatePoll(guildId: string, pollId: string, changes: Partial<Poll>, expect: PollExpectation = {}): Promise<Poll | null> {
  const fields = Object.keys(changes).filter((key) => (changes as Item)[key] !== undefined && key !== 'version');
  const values: Item = { ':one': 1 };
  fields.forEach((field, i) => (values[`:v${i}`] = (changes as Item)[field]));
  const conditions = ['attribute_exists(pk)'];
  const names = aliases([...fields, 'version', 'status', 'closing_at']);
  if (expect.version !== undefined) {
    conditions.push('#version = :expectVersion');
    values[':expectVersion'] = expect.version;
  }
  if (expect.status !== undefined) {
    conditions.push('#status = :expectStatus');
    values[':expectStatus'] = expect.status;
  }
  if (expect.notClosing) {
    conditions.push(NOT_CLOSING);
    values[':notClosing'] = 0;
  }
  const sets = fields.map((field, i) => `#${field} = :v${i}`);
  const expression = `${sets.length ? `SET ${sets.join(', ')} ` : ''}ADD #version :one`;
  const usedNames = Object.fromEntries(Object.entries(names).filter(([alias]) => `${expression} ${conditions.join(' ')}`.includes(alias)));
  const out = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: PollEntity.key({ guildId, pollId }),
        UpdateExpression: expression,
        ConditionExpression: conditions.join(' AND '),
        ExpressionAttributeNames: usedNames,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return out ? pollOf(out.Attributes as Item) : null;
}

/** Forgets the owner of a poll (privacy), if it is still this member. */
export async function clearOwner(guildId: string, pollId: string, memberId: string): Promise<boolean> {
  const out = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: PollEntity.key({ guildId, pollId }),
        UpdateExpression: 'SET poll_owner_id = :null ADD #version :one',
        ConditionExpression: 'poll_owner_id = :member',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':null': null, ':member': memberId, ':one': 1 },
      }),
    ),
  );
  return out !== null;
}

/**
 * Takes the poll's render lease (one writer of its message at a time).
 * Answers the poll as it is now, `'busy'` while another holds a live lease,
 * or null when the poll is gone.
 */
export async function takeRenderLease(guildId: string, pollId: string, leaseId: string, until: number, now: number): Promise<Poll | 'busy' | null> {
  const out = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: PollEntity.key({ guildId, pollId }),
        UpdateExpression: 'SET render_lock = :id, render_until = :until',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(render_until) OR render_until < :now)',
        ExpressionAttributeValues: { ':id': leaseId, ':until': until, ':now': now },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  if (out) return pollOf(out.Attributes as Item);
  return (await getPoll(guildId, pollId)) ? 'busy' : null;
}

/** What a render records on the poll item as it gives the lease back. */
export type RenderChanges = Partial<
  Pick<Poll, 'rendered_hash' | 'rendered_seq' | 'rendered_at' | 'edited_with_results' | 'status' | 'closed_at' | 'delete_at'>
>;

/**
 * Gives the render lease back, recording what the message now shows (in the
 * same write); answers the poll as it is then, its `vote_seq` telling
 * whether votes came in while it rendered (null: the lease was lost).
 */
export async function releaseRenderLease(guildId: string, pollId: string, leaseId: string, changes: RenderChanges): Promise<Poll | null> {
  const fields = (Object.keys(changes) as (keyof RenderChanges)[]).filter((field) => changes[field] !== undefined);
  const sets = fields.map((field) => `#${field} = :${field}`);
  const values: Item = { ':id': leaseId, ...Object.fromEntries(fields.map((field) => [`:${field}`, changes[field]])) };
  const out = await conditional(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: PollEntity.key({ guildId, pollId }),
        UpdateExpression: `${sets.length ? `SET ${sets.join(', ')} ` : ''}REMOVE render_lock, render_until`,
        ConditionExpression: 'render_lock = :id',
        ...(fields.length ? { ExpressionAttributeNames: aliases(fields) } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  return out ? pollOf(out.Attributes as Item) : null;
}

/** Deletes the poll item; answers what it held, or null when it was already gone. */
export async function deletePollItem(guildId: string, pollId: string): Promise<Poll | null> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: PollEntity.key({ guildId, pollId }), ReturnValues: 'ALL_OLD' }));
  const poll = pollOf(out.Attributes as Item | undefined);
  if (poll?.message_id) await releaseMessage(guildId, poll.channel_id, poll.message_id, pollId);
  if (poll) await db().send(new DeleteCommand({ TableName: tableName(), Key: listedKey(poll) }));
  return poll;
}

export async function getVoter(guildId: string, pollId: string, memberId: string): Promise<Voter | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: VoterEntity.key({ guildId, pollId, memberId }), ConsistentRead: true }));
  return out.Item ? VoterEntity.parse(out.Item) : null;
}

/** Every voter of a poll: read only to count a poll stored before counts were kept (`settleCounts`). */
async function listVoters(guildId: string, pollId: string): Promise<Voter[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': votersPartition(guildId, pollId), ':prefix': VoterEntity.prefix },
    ConsistentRead: true,
  });
  return items.map(VoterEntity.parse);
}

/** What a voter write did: written, lost to another write of the member's votes, or refused by the poll (gone, or closed for a vote). */
export type VoterWrite = 'done' | 'raced' | 'refused';

const BUSY = 'The poll is busy with other votes at this moment; try again shortly.';

/**
 * Writes a member's votes (behaviour §15): one TransactWriteItems, the voter
 * item put (or deleted, for no votes) if it is still as `before` was read
 * (null: it must not exist yet), and the poll's counts changed by the
 * difference, if the poll exists (and, `whileOpen`, is open). Both or
 * neither, so the counts stay exact under any race or retry.
 */
export async function writeVoter(
  guildId: string,
  pollId: string,
  memberId: string,
  before: Voter | null,
  votes: MemberVotes,
  whileOpen: boolean,
): Promise<VoterWrite> {
  const key = VoterEntity.key({ guildId, pollId, memberId });
  if (Object.keys(votes).length === 0 && before === null) return 'done';
  const condition =
    before === null
      ? { ConditionExpression: 'attribute_not_exists(pk)' }
      : {
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': before.version },
        };
  const voterAction =
    Object.keys(votes).length === 0
      ? { Delete: { TableName: tableName(), Key: key, ...condition } }
      : {
          Put: {
            TableName: tableName(),
            Item: VoterEntity.item(
              { guildId, pollId, memberId },
              { guild_id: guildId, poll_id: pollId, member_id: memberId, votes, version: (before?.version ?? 0) + 1, updated_at: new Date().toISOString() },
            ),
            ...condition,
          },
        };
  const failed = await transact([voterAction, countUpdate(guildId, pollId, countChange(before?.votes ?? {}, votes), whileOpen)], BUSY);
  return failed === null ? 'done' : failed === 0 ? 'raced' : 'refused';
}

/** The poll's side of a voter write: its counts changed by `change`, `vote_seq` raised. */
function countUpdate(guildId: string, pollId: string, change: PollCounts, whileOpen: boolean) {
  const adds: [string, number][] = [
    ...Object.entries(change.votes).map(([answer, n]) => [countAttributes.votes(Number(answer)), n] as [string, number]),
    ...Object.entries(change.members).map(([answer, n]) => [countAttributes.members(Number(answer)), n] as [string, number]),
    [countAttributes.total, change.total],
    [countAttributes.voters, change.voters],
    [countAttributes.seq, 1],
  ];
  const live = adds.filter(([, n]) => n !== 0);
  return {
    Update: {
      TableName: tableName(),
      Key: PollEntity.key({ guildId, pollId }),
      UpdateExpression: `ADD ${live.map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      // Open: not closed, and no close under way (its results are being shown).
      ConditionExpression: whileOpen ? `attribute_exists(pk) AND #status = :open AND ${NOT_CLOSING}` : 'attribute_exists(pk)',
      ExpressionAttributeNames: {
        ...Object.fromEntries(live.map(([name], i) => [`#c${i}`, name])),
        ...(whileOpen ? { '#status': 'status', '#closing_at': 'closing_at' } : {}),
      },
      ExpressionAttributeValues: { ...Object.fromEntries(live.map(([, n], i) => [`:c${i}`, n])), ...(whileOpen ? { ':open': 'open', ':notClosing': 0 } : {}) },
    },
  };
}

/** A poll's voter items when it has at most `max` of them (one bounded Query), else null. */
export async function votersUpTo(guildId: string, pollId: string, max: number): Promise<Voter[] | null> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': votersPartition(guildId, pollId), ':prefix': VoterEntity.prefix },
      Limit: max + 1,
      ConsistentRead: true,
    }),
  );
  const items = out.Items ?? [];
  return items.length > max || out.LastEvaluatedKey ? null : items.map(VoterEntity.parse);
}

/**
 * A page of a poll's voters in member order (as text), optionally only
 * those voting for `answerId`: up to `pageSize` after member `after`, or
 * page `page` from the start (behaviour §3.6, §15); `last` is the member
 * the page ends with.
 */
export async function voterPage(
  guildId: string,
  pollId: string,
  answerId: number | null,
  page: number,
  pageSize: number,
  after: string | null,
): Promise<Voter[]> {
  const filter =
    answerId === null
      ? {}
      : { FilterExpression: 'attribute_exists(#votes.#answer)', ExpressionAttributeNames: { '#votes': 'votes', '#answer': String(answerId) } };
  const { items } = await queryPage(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': votersPartition(guildId, pollId), ':prefix': VoterEntity.prefix },
      ConsistentRead: true,
      ...filter,
    },
    'pk, sk',
    page,
    pageSize,
    after === null ? null : VoterEntity.key({ guildId, pollId, memberId: after }),
  );
  return items.map(VoterEntity.parse);
}

/**
 * The counts of a poll stored before counts were kept (behaviour §15):
 * counted once from its voter items and written with `counted`, on
 * condition that no vote was written between the poll's read and the write
 * (`vote_seq` unchanged), else counted again. Answers the counts.
 */
export async function settleCounts(guildId: string, pollId: string): Promise<PollCounts | null> {
  for (let attempt = 0; ; attempt++) {
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: PollEntity.key({ guildId, pollId }), ConsistentRead: true }))).Item;
    const poll = pollOf(item);
    if (!poll) return null;
    if (poll.counts) return poll.counts;
    const counts = countsOf(poll, await listVoters(guildId, pollId));
    if (attempt >= 4) return counts;
    const sets: [string, number][] = [
      ...poll.answers.map((a) => [countAttributes.votes(a.answer_id), counts.votes[a.answer_id] ?? 0] as [string, number]),
      ...poll.answers.map((a) => [countAttributes.members(a.answer_id), counts.members[a.answer_id] ?? 0] as [string, number]),
      [countAttributes.total, counts.total],
      [countAttributes.voters, counts.voters],
    ];
    const seq = item?.[countAttributes.seq];
    const written = await conditional(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: PollEntity.key({ guildId, pollId }),
          UpdateExpression: `SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')}, #counted = :true`,
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#counted) AND ${seq === undefined ? 'attribute_not_exists(#seq)' : '#seq = :seq'}`,
          ExpressionAttributeNames: {
            ...Object.fromEntries(sets.map(([name], i) => [`#s${i}`, name])),
            '#counted': countAttributes.counted,
            '#seq': countAttributes.seq,
          },
          ExpressionAttributeValues: {
            ...Object.fromEntries(sets.map(([, n], i) => [`:s${i}`, n])),
            ':true': true,
            ...(seq === undefined ? {} : { ':seq': seq }),
          },
        }),
      ),
    );
    if (written !== null) return counts;
  }
}

/** A member's voter items on several polls of a guild (privacy). */
export async function votersOfMember(guildId: string, pollIds: readonly string[], memberId: string): Promise<Map<string, Voter>> {
  const items = await getKeys(pollIds.map((pollId) => VoterEntity.key({ guildId, pollId, memberId })));
  return new Map(items.map((item) => [String(item.poll_id), VoterEntity.parse(item)]));
}

/** Deletes one member's voter item (privacy), taking their votes off the poll's counts in the same transaction. */
export async function deleteVoter(guildId: string, pollId: string, memberId: string): Promise<void> {
  for (let voter = await getVoter(guildId, pollId, memberId); voter; voter = await getVoter(guildId, pollId, memberId)) {
    const outcome = await writeVoter(guildId, pollId, memberId, voter, {}, false);
    if (outcome === 'done') return;
    if (outcome === 'refused') {
      // The poll is gone: its voters go with it anyway.
      await db().send(new DeleteCommand({ TableName: tableName(), Key: VoterEntity.key({ guildId, pollId, memberId }) }));
      return;
    }
  }
}
