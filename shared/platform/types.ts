/**
 * The few shapes of the Discord HTTP API v10 that the service sends and
 * receives. Minimal on purpose: only fields some module reads or writes.
 * Every ID is a snowflake string, as the platform sends them.
 */

/** A platform ID: an unsigned 64-bit integer written in decimal. */
export type Snowflake = string;

/** A platform user (the author of a message, a reacting member). */
export interface User {
  id: Snowflake;
  username: string;
  global_name?: string | null;
  discriminator?: string;
  bot?: boolean;
}

/** An emoji as the platform describes it: unicode (`id` null) or custom (`id` set). */
export interface Emoji {
  id: Snowflake | null;
  name: string | null;
  animated?: boolean;
}

/** An emoji on a button, a select option or a poll answer. */
export type PartialEmoji = Partial<Emoji>;

/** A rich embed. */
export interface Embed {
  title?: string;
  type?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  color?: number;
  footer?: { text: string; icon_url?: string };
  image?: { url: string };
  thumbnail?: { url: string };
  author?: { name: string; url?: string; icon_url?: string };
  fields?: { name: string; value: string; inline?: boolean }[];
}

/** Component type numbers the service uses. */
export const ComponentType = { ActionRow: 1, Button: 2, StringSelect: 3 } as const;

/** Button styles. `Link` buttons carry a `url` and no `custom_id`. */
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4, Link: 5 } as const;

/** A clickable button. */
export interface Button {
  type: typeof ComponentType.Button;
  style: (typeof ButtonStyle)[keyof typeof ButtonStyle];
  label?: string;
  emoji?: PartialEmoji;
  custom_id?: string;
  url?: string;
  disabled?: boolean;
}

/** One choice of a dropdown. */
export interface SelectOption {
  label: string;
  value: string;
  description?: string;
  emoji?: PartialEmoji;
  default?: boolean;
}

/** A dropdown of text options. */
export interface StringSelect {
  type: typeof ComponentType.StringSelect;
  custom_id: string;
  options: SelectOption[];
  placeholder?: string;
  min_values?: number;
  max_values?: number;
  disabled?: boolean;
}

/** A row holding up to 5 buttons or one dropdown. */
export interface ActionRow {
  type: typeof ComponentType.ActionRow;
  components: (Button | StringSelect)[];
}

/** Any component the service renders. */
export type Component = ActionRow | Button | StringSelect;

/** The text (and optional emoji) of a poll question or answer. */
export interface PollMedia {
  text?: string;
  emoji?: PartialEmoji;
}

/** A platform-native poll as sent: `duration` in hours (1..768). */
export interface PollCreate {
  question: PollMedia;
  answers: { poll_media: PollMedia }[];
  duration?: number;
  allow_multiselect?: boolean;
  layout_type?: number;
}

/** A platform-native poll as received on a message. */
export interface Poll {
  question: PollMedia;
  answers: { answer_id: number; poll_media: PollMedia }[];
  expiry: string | null;
  allow_multiselect: boolean;
  layout_type: number;
  results?: {
    is_finalized: boolean;
    answer_counts: { id: number; count: number; me_voted: boolean }[];
  };
}

/** One emoji's reactions on a message; `me` says whether the bot is among them. */
export interface Reaction {
  count: number;
  me: boolean;
  emoji: Emoji;
  count_details?: { burst: number; normal: number };
}

/** Who a message may ping. */
export interface AllowedMentions {
  parse?: ('roles' | 'users' | 'everyone')[];
  roles?: Snowflake[];
  users?: Snowflake[];
  replied_user?: boolean;
}

/** Message flags the service sets. */
export const MessageFlags = { SuppressEmbeds: 4, Ephemeral: 64 } as const;

/** The body of a new message (channel message, DM or interaction answer). */
export interface MessageCreate {
  content?: string;
  embeds?: Embed[];
  components?: ActionRow[];
  poll?: PollCreate;
  allowed_mentions?: AllowedMentions;
  flags?: number;
  message_reference?: { message_id: Snowflake; channel_id?: Snowflake };
}

/** The body of a message edit; `null` clears a field. */
export interface MessageEdit {
  content?: string | null;
  embeds?: Embed[] | null;
  components?: ActionRow[] | null;
  allowed_mentions?: AllowedMentions;
  flags?: number;
}

/** A message as the platform answers it. */
export interface Message {
  id: Snowflake;
  channel_id: Snowflake;
  author: User;
  content: string;
  timestamp: string;
  edited_timestamp: string | null;
  type: number;
  flags?: number;
  mention_everyone: boolean;
  embeds: Embed[];
  components?: ActionRow[];
  reactions?: Reaction[];
  poll?: Poll;
  webhook_id?: Snowflake;
}

/** Channel type numbers the service meets. */
export const ChannelType = { GuildText: 0, DM: 1, GuildVoice: 2, GuildAnnouncement: 5 } as const;

/** A channel (guild channel or DM). */
export interface Channel {
  id: Snowflake;
  type: number;
  guild_id?: Snowflake;
  name?: string | null;
  recipients?: User[];
}

/** The body of a new invite; the platform's defaults are a day, unlimited uses. */
export interface InviteCreate {
  max_age?: number;
  max_uses?: number;
  temporary?: boolean;
  unique?: boolean;
}

/** An invite, with its metadata when the platform gives it. */
export interface Invite {
  code: string;
  guild?: { id: Snowflake; name?: string } | null;
  channel: { id: Snowflake; name?: string | null; type: number } | null;
  inviter?: User;
  max_age?: number;
  max_uses?: number;
  temporary?: boolean;
  uses?: number;
  created_at?: string;
  expires_at?: string | null;
}

/** A guild member, as far as the service cares: their roles. */
export interface GuildMember {
  user?: User;
  roles: Snowflake[];
  nick?: string | null;
  joined_at?: string;
}

/** The JSON body of a platform error (and of a 429). */
export interface PlatformErrorBody {
  message: string;
  code: number;
  errors?: unknown;
  retry_after?: number;
  global?: boolean;
}
