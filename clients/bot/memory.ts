/**
 * What the bot remembers between dispatches, because a later dispatch does
 * not carry it: a message's author (MESSAGE_DELETE names only the message),
 * the voice channel a member was in (VOICE_STATE_UPDATE names only the new
 * one), a guild's member count (GUILD_CREATE gives it, joins and leaves move
 * it), the bot's own user and the gateway session (READY: the session's ID
 * names, with a dispatch's sequence number, an event the platform gives no
 * ID of its own, keys.ts). Bounded: the oldest authors are
 * forgotten first.
 */
export class BotMemory {
  botUserId: string | null = null;
  sessionId: string | null = null;
  private readonly authors = new Map<string, string>();
  private readonly voice = new Map<string, string>();
  private readonly members = new Map<string, number>();

  constructor(private readonly maxAuthors = 50_000) {}

  rememberAuthor(messageId: string, authorId: string): void {
    this.authors.set(messageId, authorId);
    if (this.authors.size > this.maxAuthors) this.authors.delete(this.authors.keys().next().value!);
  }

  authorOf(messageId: string): string | null {
    return this.authors.get(messageId) ?? null;
  }

  /** The member's voice channel before this change; remembers the new one (null: left). */
  moveVoice(guildId: string, userId: string, channelId: string | null): string | null {
    const key = `${guildId}/${userId}`;
    const before = this.voice.get(key) ?? null;
    if (channelId) this.voice.set(key, channelId);
    else this.voice.delete(key);
    return before;
  }

  setMemberCount(guildId: string, count: number): void {
    this.members.set(guildId, count);
  }

  /** Moves a known member count by `delta`; null when the guild's count is not known. */
  moveMemberCount(guildId: string, delta: number): number | null {
    const count = this.members.get(guildId);
    if (count === undefined) return null;
    const next = Math.max(0, count + delta);
    this.members.set(guildId, next);
    return next;
  }
}
