/**
 * Interactions (INTERACTION_CREATE): a component clicked or picked, a modal
 * submitted. Each module names its components with a custom ID prefix; a
 * row here reads the module's custom ID and answers the calls to make. An
 * interaction whose custom ID belongs to no module is left unanswered:
 * another program on the same token may own it.
 *
 * Who answers the member is part of the row. `followup`: the service
 * answers through the interaction webhook (application ID and token), so
 * the bot first acknowledges the interaction (a deferred update, which shows
 * nothing) and the service's follow-up is the member's answer. `callback`:
 * the service answers the interaction callback itself (the verifier opens
 * its modal or says the member is verified), so the bot must not.
 */
import {
  type APIInteraction,
  type APIMessageComponentInteraction,
  type APIModalSubmitInteraction,
  type APIModalSubmissionComponent,
  ComponentType,
  InteractionType,
} from 'discord-api-types/v10';
import { type Call, call, operationName } from './calls.js';

/** How the member of an interaction gets their answer. */
export type AnsweredBy = 'followup' | 'callback';

/** What the bot does with one interaction. */
export interface InteractionPlan {
  module: string;
  answeredBy: AnsweredBy;
  calls: Call[];
}

/** The interaction fields a row reads: who, where, which token. */
interface Context {
  id: string;
  token: string;
  applicationId: string;
  guildId: string | null;
  memberId: string;
  channelId: string | null;
  messageId: string | null;
}

interface ComponentRow {
  module: string;
  /** The custom IDs as the README shows them. */
  shape: string;
  /** The custom IDs the module makes (its record IDs are base64url); groups are what the row reads. */
  pattern: RegExp;
  answeredBy: AnsweredBy;
  /** Every operation the row may call. */
  operations: string[];
  /** The calls, or null when the interaction lacks what the module needs (no guild, no message). */
  calls: (match: RegExpExecArray, ctx: Context, values: string[]) => Call[] | null;
}

const guildOnly = <T>(ctx: Context, make: (guildId: string, channelId: string, messageId: string) => T): T | null =>
  ctx.guildId && ctx.channelId && ctx.messageId ? make(ctx.guildId, ctx.channelId, ctx.messageId) : null;

const verification = (verifierId: string, ctx: Context, extra: { interaction_type: 'ComponentInteraction' | 'ModalInteraction'; passphrase_value?: string }) =>
  call(
    'post',
    '/modules/verifier/event/handle-verification',
    { verifier_id: verifierId, guild_id: ctx.guildId, interaction_id: ctx.id, token: ctx.token, ...extra },
    { actor: ctx.memberId },
  );

/** Buttons and selects, by the custom IDs each module builds (functions/<module>/render.ts and the verifier's prompt). */
export const COMPONENT_ROWS: ComponentRow[] = [
  {
    // A poll's answer button: `poll:<poll_id>:<answer_id>`.
    module: 'polls',
    shape: 'poll:<poll_id>:<answer_id> (button)',
    pattern: /^poll:([A-Za-z0-9_-]+):(\d+)$/,
    answeredBy: 'followup',
    operations: [operationName('post', '/modules/polls/entry/vote')],
    calls: ([, pollId, answerId], ctx) =>
      guildOnly(ctx, (guild_id, channel_id, messageId) => [
        call(
          'post',
          '/modules/polls/entry/vote',
          {
            guild_id,
            channel_id,
            poll_id: pollId!,
            answer_id: Number(answerId),
            action: 'add',
            interacted_message_id: messageId,
            application_id: ctx.applicationId,
            token: ctx.token,
          },
          { actor: ctx.memberId },
        ),
      ]),
  },
  {
    // A poll's dropdown: `poll:<poll_id>`, its option values the answer IDs picked.
    module: 'polls',
    shape: 'poll:<poll_id> (select)',
    pattern: /^poll:([A-Za-z0-9_-]+)$/,
    answeredBy: 'followup',
    operations: [operationName('post', '/modules/polls/entry/vote')],
    calls: ([, pollId], ctx, values) =>
      guildOnly(ctx, (guild_id, channel_id, messageId) =>
        values
          .filter((v) => /^\d+$/.test(v))
          .map((v) =>
            call(
              'post',
              '/modules/polls/entry/vote',
              {
                guild_id,
                channel_id,
                poll_id: pollId!,
                answer_id: Number(v),
                action: 'add',
                interacted_message_id: messageId,
                application_id: ctx.applicationId,
                token: ctx.token,
              },
              { actor: ctx.memberId },
            ),
          ),
      ),
  },
  {
    // A giveaway's Enter and Leave: `giveaway:enter:<entry_id>`, `giveaway:leave:<entry_id>`.
    module: 'giveaways',
    shape: 'giveaway:enter:<entry_id>, giveaway:leave:<entry_id>',
    pattern: /^giveaway:(enter|leave):([A-Za-z0-9_-]+)$/,
    answeredBy: 'followup',
    operations: [operationName('post', '/modules/giveaways/entries/{entry_id}/enter'), operationName('post', '/modules/giveaways/entries/{entry_id}/leave')],
    calls: ([, action, entryId], ctx) =>
      ctx.guildId
        ? [
            call(
              'post',
              action === 'enter' ? '/modules/giveaways/entries/{entry_id}/enter' : '/modules/giveaways/entries/{entry_id}/leave',
              { guild_id: ctx.guildId, application_id: ctx.applicationId, token: ctx.token },
              { actor: ctx.memberId, pathParams: { entry_id: entryId! } },
            ),
          ]
        : null,
  },
  {
    // A reaction-role panel's button (`rr:<entry_id>`) or dropdown (`rr:select`, option values the entry IDs).
    module: 'reactionroles',
    shape: 'rr:<entry_id> (button), rr:select',
    pattern: /^rr:.+$/,
    answeredBy: 'followup',
    operations: [operationName('post', '/modules/reactionroles/check')],
    calls: ([customId], ctx, values) =>
      guildOnly(ctx, (guild_id, channel_id, message_id) => [
        call(
          'post',
          '/modules/reactionroles/check',
          {
            guild_id,
            channel_id,
            message_id,
            interaction_type: 'component',
            interaction_custom_id: customId!,
            interaction_id_token: ctx.token,
            application_id: ctx.applicationId,
            interaction_value: values.length > 0 ? values.join(',') : null,
          },
          { actor: ctx.memberId },
        ),
      ]),
  },
  {
    // A verification prompt's button: `verifier:click:<verifier_id>` verifies, `verifier:passphrase:<verifier_id>` opens the modal.
    module: 'verifier',
    shape: 'verifier:click:<verifier_id>, verifier:passphrase:<verifier_id>',
    pattern: /^verifier:(?:click|passphrase):([A-Za-z0-9_-]+)$/,
    answeredBy: 'callback',
    operations: [operationName('post', '/modules/verifier/event/handle-verification')],
    calls: ([, verifierId], ctx) => [verification(verifierId!, ctx, { interaction_type: 'ComponentInteraction' })],
  },
];

interface ModalRow {
  module: string;
  shape: string;
  pattern: RegExp;
  answeredBy: AnsweredBy;
  operations: string[];
  calls: (match: RegExpExecArray, ctx: Context, fields: Map<string, string>) => Call[] | null;
}

/** Modals, by the custom IDs of the modals the service opens. */
export const MODAL_ROWS: ModalRow[] = [
  {
    // The verifier's passphrase modal: `verifier:modal:<verifier_id>`, its text input `passphrase`.
    module: 'verifier',
    shape: 'verifier:modal:<verifier_id> (modal)',
    pattern: /^verifier:modal:([A-Za-z0-9_-]+)$/,
    answeredBy: 'callback',
    operations: [operationName('post', '/modules/verifier/event/handle-verification')],
    calls: ([, verifierId], ctx, fields) => [
      verification(verifierId!, ctx, { interaction_type: 'ModalInteraction', passphrase_value: fields.get('passphrase') ?? '' }),
    ],
  },
];

function contextOf(interaction: APIMessageComponentInteraction | APIModalSubmitInteraction): Context | null {
  const memberId = interaction.member?.user?.id ?? interaction.user?.id;
  if (!memberId || typeof interaction.token !== 'string' || typeof interaction.application_id !== 'string') return null;
  return {
    id: interaction.id,
    token: interaction.token,
    applicationId: interaction.application_id,
    guildId: interaction.guild_id ?? null,
    memberId,
    channelId: interaction.channel_id ?? interaction.channel?.id ?? null,
    messageId: interaction.message?.id ?? null,
  };
}

/** The text inputs of a submitted modal, by custom ID (in action rows or labels). */
export function modalFields(components: APIModalSubmissionComponent[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (const c of components ?? []) {
    const inputs = c.type === ComponentType.ActionRow ? c.components : c.type === ComponentType.Label ? [c.component] : [];
    for (const input of inputs ?? []) if (input && 'value' in input && typeof input.value === 'string') fields.set(input.custom_id, input.value);
  }
  return fields;
}

/** The plan for an interaction, or null when it is none of the modules' (left unanswered) or lacks what the module needs. */
export function planInteraction(interaction: APIInteraction): InteractionPlan | null {
  if (interaction.type === InteractionType.MessageComponent) {
    const ctx = contextOf(interaction);
    const customId = interaction.data?.custom_id;
    if (!ctx || typeof customId !== 'string') return null;
    const values = 'values' in interaction.data && Array.isArray(interaction.data.values) ? interaction.data.values.map(String) : [];
    for (const row of COMPONENT_ROWS) {
      const match = row.pattern.exec(customId);
      if (!match) continue;
      const calls = row.calls(match, ctx, values);
      return calls && calls.length > 0 ? { module: row.module, answeredBy: row.answeredBy, calls } : null;
    }
    return null;
  }
  if (interaction.type === InteractionType.ModalSubmit) {
    const ctx = contextOf(interaction);
    const customId = interaction.data?.custom_id;
    if (!ctx || typeof customId !== 'string') return null;
    for (const row of MODAL_ROWS) {
      const match = row.pattern.exec(customId);
      if (!match) continue;
      const calls = row.calls(match, ctx, modalFields(interaction.data.components));
      return calls && calls.length > 0 ? { module: row.module, answeredBy: row.answeredBy, calls } : null;
    }
  }
  return null;
}
