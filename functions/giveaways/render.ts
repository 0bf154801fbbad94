/**
 * How a giveaway looks on the platform (behaviour §12): while running, an
 * embed with the prize, description, winner count, host, end time and
 * entrants, and Enter / Leave buttons; at the end, the winners and no
 * buttons (after a reroll, naming its round); and the announcement that
 * mentions the winners only and names a reroll's round.
 */
import type { ActionRow, MessageCreate } from '#shared/platform/types.js';
import { fitLimits } from '#shared/templates/limits.js';
import type { Giveaway } from './store.js';

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const mentions = (ids: string[]) => ids.map((id) => `<@${id}>`).join(', ');

function buttons(g: Giveaway): ActionRow[] {
  return [
    {
      type: 1,
      components: [
        { type: 2, style: 3, label: 'Enter', custom_id: `giveaway:enter:${g.entry_id}` },
        { type: 2, style: 2, label: 'Leave', custom_id: `giveaway:leave:${g.entry_id}` },
      ],
    },
  ];
}

/** How a reroll's round (2 and on) is named where it is shown. */
const rerollName = (round: number) => `Reroll ${round - 1} (round ${round})`;

/** After a reroll the message names the round its winners come from. */
const wonIn = (g: Giveaway) => {
  const latest = g.rounds.at(-1)?.round ?? 1;
  return latest > 1 ? ` · ${rerollName(latest)}` : '';
};

export function giveawayMessage(g: Giveaway): MessageCreate {
  const lines = [...(g.description ? [g.description, ''] : []), `**Winners:** ${g.winner_count}`, ...(g.owner_id ? [`**Hosted by:** <@${g.owner_id}>`] : [])];
  if (g.status === 'running') {
    lines.push(`**Ends:** <t:${unix(g.end_time)}:R> (<t:${unix(g.end_time)}:f>)`, `**Entrants:** ${g.participant_count}`);
  } else {
    lines.push(
      `**Ended:** <t:${unix(g.end_time)}:f>`,
      `**Entrants:** ${g.participant_count}`,
      g.winners.length ? `**Won by:** ${mentions(g.winners)}${wonIn(g)}` : '**No one entered, so there is no winner.**',
    );
  }
  lines.push('', `-# Seed hash ${g.seed_hash}${g.seed ? ` · seed ${g.seed}` : ''}`);
  // The prize and description are the host's text: cut to the platform's limits, so the giveaway still posts.
  return fitLimits(
    {
      embeds: [{ title: `🎉 ${g.prize}`, description: lines.join('\n') }],
      components: g.status === 'running' ? buttons(g) : [],
      allowed_mentions: { parse: [] },
    },
    'cut',
  );
}

/** The announcement replying to the giveaway's message: only the winners are pinged; a reroll's names its round. */
export function announcement(g: Giveaway, winners: string[], round: number): MessageCreate {
  const content = winners.length
    ? `${round > 1 ? `${rerollName(round)}: c` : 'C'}ongratulations ${mentions(winners)}! You won **${g.prize}**.`
    : `The giveaway for **${g.prize}** ended with no entrants, so there is no winner.`;
  return fitLimits(
    {
      content,
      allowed_mentions: { users: winners, parse: [] },
      ...(g.message_id ? { message_reference: { message_id: g.message_id, channel_id: g.channel_id } } : {}),
    },
    'cut',
  );
}
