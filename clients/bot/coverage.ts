/**
 * `npx tsx clients/bot/coverage.ts`: the event table as the README shows
 * it, and its coverage: the gateway events the modules need, which the bot
 * handles, and which not (with why).
 */
import { pathToFileURL } from 'node:url';
import { EVENT_TABLE } from './events.js';
import { COMPONENT_ROWS, MODAL_ROWS } from './interactions.js';

/** The events the modules need, each with what needs it; `handled: false` rows say what is missing. */
export const NEEDED: { event: string; need: string; handled: boolean }[] = [
  { event: 'MESSAGE_REACTION_ADD', need: 'reaction roles, emoji polls, starboard', handled: true },
  { event: 'MESSAGE_REACTION_REMOVE', need: 'reaction roles, emoji polls, starboard', handled: true },
  { event: 'MESSAGE_REACTION_REMOVE_ALL', need: 'starboard count', handled: true },
  { event: 'MESSAGE_REACTION_REMOVE_EMOJI', need: 'starboard count', handled: true },
  {
    event: 'INTERACTION_CREATE (button, select)',
    need: 'poll votes, giveaway enter and leave, reaction-role buttons and selects, verification',
    handled: true,
  },
  { event: 'INTERACTION_CREATE (modal submit)', need: 'verification passphrase', handled: true },
  {
    event: 'INTERACTION_CREATE (command, autocomplete)',
    need: "tags sent by a member's command, polls and giveaways started by managers, the commands-used statistic",
    handled: true,
  },
  { event: 'MESSAGE_POLL_VOTE_ADD', need: 'native polls', handled: true },
  { event: 'MESSAGE_POLL_VOTE_REMOVE', need: 'native polls', handled: true },
  { event: 'GUILD_MEMBER_ADD', need: 'invite tracking, welcome, join roles, verification prompt, member statistics', handled: true },
  { event: 'GUILD_MEMBER_REMOVE', need: 'invite tracking, leave message, member statistics', handled: true },
  { event: 'GUILD_CREATE', need: 'member total', handled: true },
  { event: 'MESSAGE_CREATE', need: 'messages statistic', handled: true },
  { event: 'MESSAGE_DELETE', need: 'polls, panels and starboard posts on the message, messages-deleted statistic', handled: true },
  { event: 'MESSAGE_DELETE_BULK', need: 'the same, per message', handled: true },
  { event: 'CHANNEL_DELETE', need: 'panels, counters and the starboard in the channel', handled: true },
  { event: 'INVITE_CREATE', need: 'invite tracking, invites statistic', handled: true },
  { event: 'INVITE_DELETE', need: 'invite tracking', handled: true },
  { event: 'VOICE_STATE_UPDATE', need: 'voice statistic', handled: true },
  { event: 'PRESENCE_UPDATE', need: 'activities statistic (the online/idle/dnd status counts are not sent)', handled: true },
];

/** The README's table: one row per event, its operations in the order called and the identity its calls' keys start with (keys.ts). */
export function markdownTable(): string {
  const rows = Object.entries(EVENT_TABLE)
    .filter(([, row]) => row && row.operations.length > 0)
    .map(
      ([event, row]) =>
        `| \`${event}\` | ${row!.operations.map((o) => `\`${o}\``).join('<br>')} | \`${row!.identity?.shape ?? 'dispatch:<session id>:<s>'}\` |`,
    );
  const components = [...COMPONENT_ROWS, ...MODAL_ROWS].map(
    (row) => `| \`${row.shape}\` | ${row.module} | ${row.answeredBy} | ${row.operations.map((o) => `\`${o}\``).join('<br>')} |`,
  );
  return [
    '| event | operations (in order) | Idempotency-Key, before `:<operation>` |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '| custom ID | module | member answered by | operations |',
    '| --- | --- | --- | --- |',
    ...components,
  ].join('\n');
}

export function coverageLine(): string {
  const handled = NEEDED.filter((n) => n.handled).length;
  const missing = NEEDED.filter((n) => !n.handled).map((n) => `${n.event}: ${n.need}`);
  return `Events handled: ${handled} of ${NEEDED.length} the modules need${missing.length ? `; not handled: ${missing.join('; ')}` : ''}.`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(markdownTable());
  console.log();
  console.log(coverageLine());
}
