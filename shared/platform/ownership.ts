/**
 * Platform objects belong to the request's guild (behaviour §13): the check
 * an endpoint names (`owned: checkOwned`) when its schemas declare fields
 * naming channels, categories, roles, messages or invites
 * (shared/http/owned.ts). It runs before the use case: nothing is posted or
 * stored for a request naming another guild's object.
 *
 * One platform read per named object at most: GET /channels/{c} for a
 * channel or category, one GET /guilds/{g}/roles for every role of the
 * request, GET /channels/{c}/messages/{m} for a message (its channel read
 * as a channel), GET /invites/{code} for an invite. A channel's guild never
 * changes, so a channel confirmed to be the guild's is kept for the life of
 * the warm function and not read again; a refusal is never kept. A platform
 * failure (5xx, timeout) is the usual 502.
 */
import { notFound, unprocessable } from '../errors.js';
import type { NamedObject } from '../http/owned.js';
import { platform } from './client.js';
import { PlatformCode, isPlatformError, isPlatformNotFound } from './platform-error.js';
import type { Channel } from './types.js';

/** What the factory calls with the objects a valid request names. */
export type OwnershipCheck = (guildId: string, named: NamedObject[]) => Promise<void>;

/** The channel type of a category. */
const CATEGORY = 4;

/** Channel ID -> its guild and type, for channels confirmed to be a guild's. */
const knownChannels = new Map<string, { guildId: string; type: number }>();

/** A channel the platform will not show the bot (403 Missing Access). */
const HIDDEN = 'hidden';

/** Why an object is refused: a sentence naming the field, or null when it is the guild's. */
type Verdict = string | null;

const notInGuild = (field: string, what: string, guildId: string) => `Field '${field}' names ${what}, which is not in guild ${guildId}.`;
const unknown = (field: string, what: string) => `Field '${field}' names ${what}, which the platform does not know.`;

/** Reads once per ID within a request, however many fields name it. */
function once<T>(read: (id: string) => Promise<T>): (id: string) => Promise<T> {
  const reads = new Map<string, Promise<T>>();
  return (id) => {
    let pending = reads.get(id);
    if (!pending) reads.set(id, (pending = read(id)));
    return pending;
  };
}

/** The platform's answer, or null when it does not know the object (404). */
async function orUnknown<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isPlatformNotFound(error)) return null;
    throw error;
  }
}

export const checkOwned: OwnershipCheck = async (guildId, named) => {
  const channel = once(async (id) => {
    const known = knownChannels.get(id);
    if (known) return known;
    let found: (Channel & { guild_id?: string | null }) | null;
    try {
      found = await orUnknown(platform.getChannel(id));
    } catch (error) {
      // The platform hides a channel the bot may not see (a guild it is not in): not one the service can use here.
      if (isPlatformError(error, { code: PlatformCode.MissingAccess })) return HIDDEN;
      throw error;
    }
    if (!found) return null;
    const answer = { guildId: found.guild_id ?? '', type: found.type };
    if (answer.guildId === guildId) knownChannels.set(id, answer);
    return answer;
  });
  let guildRoles: Promise<Set<string>> | undefined;
  const roles = () => (guildRoles ??= platform.getGuildRoles(guildId).then((list) => new Set(list.map((role) => role.id))));

  const channelVerdict = async (field: string, id: string, what: string): Promise<Verdict> => {
    const found = await channel(id);
    if (!found) return unknown(field, what);
    if (found === HIDDEN) return `Field '${field}' names ${what}, which the bot cannot see: it is not a channel of guild ${guildId} the service can use.`;
    return found.guildId === guildId ? null : notInGuild(field, what, guildId);
  };

  const verdictOf = async (object: NamedObject): Promise<Verdict> => {
    const { field, id, declaration } = object;
    switch (declaration.kind) {
      case 'channel':
        return channelVerdict(field, id, `channel ${id}`);
      case 'category': {
        const refused = await channelVerdict(field, id, `category ${id}`);
        if (refused) return refused;
        return ((await channel(id)) as { type: number }).type === CATEGORY
          ? null
          : `Field '${field}' names channel ${id}, which is not a category (channel type 4).`;
      }
      case 'role':
        return (await roles()).has(id) ? null : `Field '${field}' names role ${id}, which is not a role of guild ${guildId}.`;
      case 'message': {
        const channelId = object.channelId;
        if (channelId === undefined) return `Field '${field}' names message ${id} without its channel.`;
        const refused = await channelVerdict(field, channelId, `message ${id} in channel ${channelId}`);
        if (refused) return refused;
        return (await orUnknown(platform.getMessage(channelId, id))) ? null : unknown(field, `message ${id} in channel ${channelId}`);
      }
      case 'invite': {
        const invite = await orUnknown(platform.getInvite(id));
        if (!invite) {
          if (declaration.unknownIsNotFound) throw notFound(`There is no invite ${id} on the platform.`);
          return unknown(field, `invite ${id}`);
        }
        return invite.guild?.id === guildId ? null : notInGuild(field, `invite ${id}`, guildId);
      }
    }
  };

  // Every object at once; the answer names every refused field, in the request's order.
  const settled = await Promise.allSettled(named.map(verdictOf));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  const refusals = settled.flatMap((s) => (s.status === 'fulfilled' && s.value ? [s.value] : []));
  if (refusals.length) throw unprocessable(refusals.join(' '));
};
