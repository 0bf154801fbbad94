/**
 * The check use case: a member reacted, un-reacted, clicked a button or
 * answered a dropdown on a panel. The member's claim on the panel moves to
 * what the panel's rules say, their roles follow, and for a component
 * interaction the member is told what changed.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AppError, databaseFailed, notFound, unprocessable } from '#shared/errors.js';
import { requireEnabledWith } from '#shared/modules/state.js';
import { tellMember } from '#shared/platform/interaction.js';
import { type Transition, type Trigger, rolesOf, transition } from './claims.js';
import { type Claim, type Entry, MODULE, type Panel } from './model.js';
import { removeMemberReaction } from './panel-message.js';
import { SELECT_CUSTOM_ID, describeTransition, entryIdOfButton } from './render.js';
import { changeRoles } from './roles.js';
import { emojiKey, entryEmojiKey } from './rules.js';
import { MessageEntity, getClaim, getPanelAndClaim, writeClaim } from './store.js';
import { errorField, log } from '#shared/observe/log.js';

/** Behaviour §3.3: a panel matched but no entry did: HTTP 404 with the name Unprocessable Entity. */
const noMatchingEntry = (reason: string) => new AppError('Unprocessable Entity', reason, { status: 404 });

/** Ten events of one member at once need at most ten rounds; more means the table is struggling. */
const MAX_CLAIM_ATTEMPTS = 30;

export interface CheckInput {
  channel_id: string;
  message_id: string;
  interaction_type: 'component' | 'reaction_add' | 'reaction_delete';
  interaction_custom_id?: string | null;
  interaction_id_token?: string | null;
  application_id?: string | null;
  interaction_value?: string | null;
  emoji_name?: string | null;
  emoji_id?: string | null;
}

/**
 * The answer when a panel matches but none of its entries does: HTTP 404
 * named Unprocessable Entity, as the user document's example for this
 * endpoint shows (behaviour §3.3). Only the check endpoint answers this way.
 */

/** What the member did, as a trigger on one of the panel's entries; throws when nothing on the panel matches. */
async function triggerOf(panel: Panel, memberId: string, input: CheckInput): Promise<{ trigger: Trigger; entry: Entry | null }> {
  const byId = (id: string) => panel.entries.find((e) => e.entry_id === id);

  if (input.interaction_type !== 'component') {
    const name = input.emoji_name!;
    const id = input.emoji_id ?? null;
    const entry = panel.panel_type === 'emoji' ? panel.entries.find((e) => entryEmojiKey(e) === emojiKey(name, id)) : undefined;
    if (!entry) {
      if (panel.panel_type === 'emoji' && panel.delete_unrelated_emoji_reactions && input.interaction_type === 'reaction_add') {
        await removeMemberReaction(panel, { name, id }, memberId);
      }
      throw noMatchingEntry(
        panel.panel_type === 'emoji'
          ? `No entry of panel '${panel.panel_id}' uses the emoji '${id ? `${name}:${id}` : name}'.`
          : `Panel '${panel.panel_id}' is a ${panel.panel_type} panel; reactions on it grant nothing.`,
      );
    }
    return { trigger: { kind: input.interaction_type, entryId: entry.entry_id }, entry };
  }

  const customId = input.interaction_custom_id!;
  if (panel.panel_type === 'button') {
    const entry = byId(entryIdOfButton(customId) ?? '');
    if (!entry) throw noMatchingEntry(`No button of panel '${panel.panel_id}' has the custom ID '${customId}'.`);
    return { trigger: { kind: 'button', entryId: entry.entry_id }, entry };
  }
  if (panel.panel_type === 'dropdown' && customId === SELECT_CUSTOM_ID) {
    const values = [...new Set((input.interaction_value ?? '').split(',').filter((v) => v !== ''))];
    const unknown = values.find((v) => !byId(v));
    if (unknown !== undefined) throw noMatchingEntry(`No option of panel '${panel.panel_id}' has the value '${unknown}'.`);
    if (panel.limit_roles_to_one && values.length > 1) {
      throw unprocessable(`Field 'interaction_value' names ${values.length} options; panel '${panel.panel_id}' lets a member hold one.`);
    }
    return { trigger: { kind: 'select', entryIds: values }, entry: values.length === 1 ? byId(values[0]!)! : null };
  }
  throw noMatchingEntry(`Panel '${panel.panel_id}' has no component with the custom ID '${customId}'.`);
}

/**
 * Moves the member's claim: read it, work out the transition, change the
 * roles on the platform (all or nothing), then write the claim if nobody
 * wrote it in between; otherwise start over from the newer claim. Roles
 * change before the write, so a refused role leaves no claim; a write
 * follows every read it acted on, so the write that wins was preceded by
 * its own role changes. An attempt that lost the race may still have
 * changed roles after the winner did: such an event ends by aligning.
 */
async function settle(panel: Panel, memberId: string, trigger: Trigger, read: Claim | null): Promise<Transition> {
  const touched = new Set<string>();
  let raced = false;
  try {
    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      if (attempt > 0) await delay(Math.floor(Math.random() * 5 * Math.min(attempt, 4)));
      // The first attempt acts on the claim read with the panel.
      const claim = attempt === 0 ? read : await getClaim(panel.guild_id, panel.panel_id, memberId);
      const t = transition(panel, panel.entries, claim?.entry_ids ?? [], trigger);
      if (t.unchanged) return t;
      await changeRoles(panel.guild_id, memberId, t.rolesToAdd, t.rolesToRemove);
      for (const role of [...t.rolesToAdd, ...t.rolesToRemove]) touched.add(role);
      if (await writeClaim(panel.guild_id, panel.panel_id, memberId, t.held, claim)) return t;
      raced = true;
    }
    throw databaseFailed(`The claims of member ${memberId} on panel '${panel.panel_id}' changed too often at once; try again shortly.`);
  } finally {
    if (raced) await alignRoles(panel, memberId, touched);
  }
}

/**
 * Sets each role in `roles` to what the stored claim says, then rewrites the
 * claim unchanged under a new version: that write orders this alignment
 * among the other writes, so a concurrent event that read the claim before
 * it starts over. Repeats when another write came first.
 */
async function alignRoles(panel: Panel, memberId: string, roles: Set<string>): Promise<void> {
  for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
    const claim = await getClaim(panel.guild_id, panel.panel_id, memberId);
    const granted = rolesOf(panel.entries, claim?.entry_ids ?? []);
    const add = [...roles].filter((role) => granted.has(role));
    const remove = [...roles].filter((role) => !granted.has(role));
    try {
      await changeRoles(panel.guild_id, memberId, add, remove);
    } catch (error) {
      log('warn', 'could not align roles with a claim', { panel_id: panel.panel_id, member_id: memberId, error: errorField(error) });
      return;
    }
    // No claim: nothing to rewrite; a read shows whether one appeared meanwhile.
    const settled = claim
      ? await writeClaim(panel.guild_id, panel.panel_id, memberId, claim.entry_ids, claim)
      : (await getClaim(panel.guild_id, panel.panel_id, memberId)) === null;
    if (settled) return;
  }
}

/** The reactions the service takes off after handling a reaction (keep_counter_at_one, limit_roles_to_one). */
async function tidyReactions(panel: Panel, memberId: string, input: CheckInput, t: Transition): Promise<void> {
  if (panel.panel_type !== 'emoji' || input.interaction_type === 'component') return;
  if (panel.keep_counter_at_one) {
    if (input.interaction_type === 'reaction_add') await removeMemberReaction(panel, { name: input.emoji_name!, id: input.emoji_id ?? null }, memberId);
    return;
  }
  // The member's reactions on entries they no longer hold (limit_roles_to_one moved them).
  const released = panel.entries.filter((e) => t.released.includes(e.entry_id));
  for (const entry of released) {
    if (input.interaction_type === 'reaction_delete' && emojiKey(input.emoji_name!, input.emoji_id ?? null) === entryEmojiKey(entry)) continue;
    await removeMemberReaction(panel, { name: entry.emoji_name, id: entry.emoji_id }, memberId);
  }
}

/** The panel on the message and the member's claim on it: two requests (the module state with the message's pointer, then panel and claim). */
async function panelAndClaim(guildId: string, memberId: string, input: CheckInput): Promise<{ panel: Panel; claim: Claim | null }> {
  const pointer = await requireEnabledWith(guildId, MODULE, MessageEntity, { guildId, channelId: input.channel_id, messageId: input.message_id });
  const found = pointer ? await getPanelAndClaim(guildId, pointer, memberId) : null;
  if (!found?.panel) throw notFound(`Message ${input.message_id} in channel ${input.channel_id} is not a reaction-role panel of guild ${guildId}.`);
  return { panel: found.panel, claim: found.claim };
}

async function handle(guildId: string, memberId: string, input: CheckInput) {
  const { panel, claim } = await panelAndClaim(guildId, memberId, input);
  const { trigger, entry } = await triggerOf(panel, memberId, input);
  const t = await settle(panel, memberId, trigger, claim);
  await tidyReactions(panel, memberId, input, t);
  return {
    panel_id: panel.panel_id,
    entry_id: entry?.entry_id ?? null,
    member_id: memberId,
    changed: t.unchanged === null,
    claimed: t.claimed,
    released: t.released,
    roles_added: t.rolesToAdd,
    roles_removed: t.rolesToRemove,
    entries_held: t.held,
    message: describeTransition(t),
  };
}

/** Answers the member of a component interaction; best effort (the claim is already settled). */
const answerMember = (input: CheckInput, text: string) => tellMember({ applicationId: input.application_id!, token: input.interaction_id_token! }, text);

/**
 * Handles one interaction of `memberId` with a panel. A component
 * interaction is answered through its webhook, with what changed or with
 * why nothing could.
 */
export async function checkInteraction(guildId: string, memberId: string, input: CheckInput) {
  if (input.interaction_type !== 'component') return handle(guildId, memberId, input);
  try {
    const result = await handle(guildId, memberId, input);
    await answerMember(input, result.message);
    return result;
  } catch (error) {
    if (error instanceof AppError) await answerMember(input, `Nothing changed: ${error.reason}`);
    throw error;
  }
}
