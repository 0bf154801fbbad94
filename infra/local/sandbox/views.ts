/**
 * How stored things look on the wire, as the platform's JSON: messages (with
 * reactions and poll results seen from the bot), channels and invites.
 */
import type { APIInvite } from 'discord-api-types/v10';
import type { Channel, Invite, Message, Poll, Reaction } from '#shared/platform/types.js';
import { BOT_USER, type SandboxState, type StoredChannel, type StoredInvite, type StoredMessage, type StoredPoll, userOf } from './state.js';

/** A poll is final once ended early or once its expiry has passed. */
export function isPollFinal(poll: StoredPoll, now = new Date()): boolean {
  return poll.ended || poll.expiry.getTime() <= now.getTime();
}

function pollView(poll: StoredPoll): Poll {
  return {
    question: poll.question,
    answers: poll.answers,
    expiry: poll.expiry.toISOString(),
    allow_multiselect: poll.allow_multiselect,
    layout_type: poll.layout_type,
    results: {
      is_finalized: isPollFinal(poll),
      answer_counts: poll.answers
        .map(({ answer_id }) => {
          const voters = poll.votes.get(answer_id) ?? new Set<string>();
          return { id: answer_id, count: voters.size, me_voted: voters.has(BOT_USER.id) };
        })
        .filter((c) => c.count > 0),
    },
  };
}

function reactionView(users: Set<string>, emoji: Reaction['emoji']): Reaction {
  return { count: users.size, count_details: { burst: 0, normal: users.size }, me: users.has(BOT_USER.id), me_burst: false, burst_colors: [], emoji };
}

/** A message as the platform answers it; `reactions` and `poll` only when there are some. */
export function messageView(message: StoredMessage): Message {
  const view: Message = {
    id: message.id,
    channel_id: message.channel_id,
    author: message.author,
    content: message.content,
    timestamp: message.timestamp.toISOString(),
    edited_timestamp: message.edited_timestamp?.toISOString() ?? null,
    type: 0,
    flags: message.flags,
    mention_everyone: mentionsEveryone(message),
    embeds: message.embeds,
    components: message.components,
    attachments: [],
    mentions: [],
    mention_roles: [],
    pinned: false,
    tts: false,
  };
  const reactions = [...message.reactions.values()].filter((r) => r.users.size > 0);
  if (reactions.length > 0) view.reactions = reactions.map((r) => reactionView(r.users, r.emoji));
  if (message.poll) view.poll = pollView(message.poll);
  if (message.webhook_id) view.webhook_id = message.webhook_id;
  return view;
}

/** `@everyone`/`@here` pings unless `allowed_mentions` leaves `everyone` out. */
function mentionsEveryone(message: StoredMessage): boolean {
  if (!/@(everyone|here)/.test(message.content)) return false;
  const allowed = message.allowed_mentions;
  return !allowed || (allowed.parse ?? []).some((kind) => kind === 'everyone');
}

export function channelView(channel: StoredChannel): Channel {
  // The sandbox keeps one shape for every channel type; each answer has the fields its type has.
  const view: Record<string, unknown> = { id: channel.id, type: channel.type, name: channel.name };
  if (channel.guild_id) {
    view.guild_id = channel.guild_id;
    view.permission_overwrites = channel.permission_overwrites ?? [];
  }
  if (channel.recipient_id) view.recipients = [userOf(channel.recipient_id)];
  return view as unknown as Channel;
}

/** An invite; `withMetadata` adds uses, limits and creation time (channel invite lists, creation). */
export function inviteView(state: SandboxState, invite: StoredInvite, withMetadata: boolean): APIInvite | Invite {
  const channel = state.channels.get(invite.channel_id);
  const expires = invite.max_age > 0 ? new Date(invite.created_at.getTime() + invite.max_age * 1000).toISOString() : null;
  const view: APIInvite = {
    code: invite.code,
    type: 0,
    guild: (invite.guild_id ? { id: invite.guild_id } : null) as unknown as APIInvite['guild'],
    channel: channel ? { id: channel.id, name: channel.name, type: channel.type } : { id: invite.channel_id, name: null, type: 0 },
    inviter: userOf(invite.inviter_id),
    expires_at: expires,
  };
  if (!withMetadata) return view;
  return {
    ...view,
    uses: invite.uses,
    max_uses: invite.max_uses,
    max_age: invite.max_age,
    temporary: invite.temporary,
    created_at: invite.created_at.toISOString(),
  };
}
