/**
 * The shapes of the Discord HTTP API v10 the service sends and receives, as
 * `discord-api-types` defines them, under the names the modules use. The
 * few numbers the service writes (component types, button styles, flags,
 * channel types) are small constants here, so a function does not load the
 * package's enums at run time; TypeScript checks them against its types.
 */

import type {
  APIActionRowComponent,
  APIAllowedMentions,
  APIButtonComponent,
  APIChannel,
  APIEmbed,
  APIEmoji,
  APIExtendedInvite,
  APIGuildMember,
  APIMessage,
  APIMessageComponentEmoji,
  APIPoll,
  APIPollMedia,
  APIReaction,
  APISelectMenuOption,
  APIStringSelectComponent,
  APIUser,
  RESTAPIPoll,
  RESTError,
  RESTPatchAPIChannelMessageJSONBody,
  RESTPostAPIChannelInviteJSONBody,
  RESTPostAPIChannelMessageJSONBody,
  RESTRateLimit,
} from 'discord-api-types/v10';

/** A platform ID: an unsigned 64-bit integer written in decimal. */
export type Snowflake = string;

export type User = APIUser;
export type Emoji = APIEmoji;
/** An emoji on a button or a select option. */
export type PartialEmoji = APIMessageComponentEmoji;
export type Embed = APIEmbed;

/** Component type numbers the service uses (the values of discord-api-types' enum, without loading it). */
export const ComponentType = { ActionRow: 1, Button: 2, StringSelect: 3 } as const;
/** Button styles. `Link` buttons carry a `url` and no `custom_id`. */
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4, Link: 5 } as const;

export type Button = APIButtonComponent;
export type SelectOption = APISelectMenuOption;
export type StringSelect = APIStringSelectComponent;
export type ActionRow = APIActionRowComponent<APIButtonComponent | APIStringSelectComponent>;
export type Component = ActionRow | Button | StringSelect;
export type PollMedia = APIPollMedia;
export type PollCreate = RESTAPIPoll;
export type Poll = APIPoll;
export type Reaction = APIReaction;
export type AllowedMentions = APIAllowedMentions;

/** Message flags the service sets. */
export const MessageFlags = { SuppressEmbeds: 4, Ephemeral: 64 } as const;

export type MessageCreate = RESTPostAPIChannelMessageJSONBody;
export type MessageEdit = RESTPatchAPIChannelMessageJSONBody;
export type Message = APIMessage;

/** Channel type numbers the service meets. */
export const ChannelType = { GuildText: 0, DM: 1, GuildVoice: 2, GuildAnnouncement: 5 } as const;

export type Channel = APIChannel;
export type InviteCreate = RESTPostAPIChannelInviteJSONBody;
export type Invite = APIExtendedInvite;
export type GuildMember = APIGuildMember;

/** The JSON body of a platform error (and of a 429). */
export type PlatformErrorBody = RESTError & Partial<Pick<RESTRateLimit, 'retry_after' | 'global'>>;
