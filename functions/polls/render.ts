/**
 * How poll messages look on the platform: the service's own poll (an embed
 * with the question, description, answers with counts and the end time,
 * plus buttons or a dropdown), its results once closed (who voted for what
 * unless anonymous), and the body of a platform-native poll. Pure.
 */
import { createHash } from 'node:crypto';
import type { APIPartialEmoji } from 'discord-api-types/v10';
import {
  type ActionRow,
  type Button,
  ButtonStyle,
  ComponentType,
  type Embed,
  type MessageCreate,
  type PartialEmoji,
  type StringSelect,
} from '#shared/platform/types.js';
import { MESSAGE_LIMITS, fitLimits } from '#shared/templates/limits.js';
import { AnswerType, type Poll, type AnswerOption, type Tally } from './model.js';

export const BUTTON_LABEL_MAX = 80;
export const OPTION_TEXT_MAX = 100;
const BUTTONS_PER_ROW = 5;

/** What rendering needs of a poll. */
export type PollView = Pick<
  Poll,
  'poll_id' | 'poll_answer_type' | 'question' | 'description' | 'answers' | 'status' | 'end_time' | 'is_anonymous' | 'is_multi_select' | 'max_votes_per_answer'
> & { closed_at?: number | null };

/** A message body the service sends for a service poll (create and edit take the same fields). */
export interface PollMessage {
  embeds: Embed[];
  components: ActionRow[];
  allowed_mentions: { parse: [] };
}

const COLOR_OPEN = 0x5865f2;
const COLOR_CLOSED = 0x99aab5;

/** An answer's emoji as message text: `<:name:id>` for a custom emoji, the emoji itself otherwise. */
export function emojiText(answer: Pick<AnswerOption, 'emoji_name' | 'emoji_id'>): string {
  if (!answer.emoji_name) return '';
  return answer.emoji_id ? `<:${answer.emoji_name}:${answer.emoji_id}>` : answer.emoji_name;
}

/** An answer's emoji on a component or a native poll answer. */
export function componentEmoji(answer: Pick<AnswerOption, 'emoji_name' | 'emoji_id'>): PartialEmoji | undefined {
  if (!answer.emoji_name) return undefined;
  return answer.emoji_id ? { id: answer.emoji_id, name: answer.emoji_name } : { name: answer.emoji_name };
}

/** What a button or dropdown option says: its label, else the answer's text. */
export const labelOf = (answer: Pick<AnswerOption, 'label' | 'answer_text'>) => answer.label ?? answer.answer_text;

/** custom_id of an answer's button: the bot reads the poll and the answer from it. */
export const buttonCustomId = (pollId: string, answerId: number) => `poll:${pollId}:${answerId}`;
/** custom_id of a poll's dropdown; option values are answer IDs. */
export const selectCustomId = (pollId: string) => `poll:${pollId}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function bar(share: number): string {
  const filled = Math.round(share * 10);
  return '▓'.repeat(filled) + '░'.repeat(10 - filled);
}

function answerBlock(answer: AnswerOption, count: number, total: number): string {
  const emoji = emojiText(answer);
  const percent = total === 0 ? 0 : Math.round((count / total) * 100);
  return `${emoji ? `${emoji} ` : ''}**${answer.answer_text}**\n${bar(total === 0 ? 0 : count / total)} ${plural(count, 'vote')} · ${percent}%`;
}

function footerOf(poll: PollView, total: number): string {
  const parts = [plural(total, 'vote'), poll.is_multi_select ? 'several answers allowed' : 'one answer per member'];
  if (poll.max_votes_per_answer > 1) parts.push(`up to ${poll.max_votes_per_answer} votes per answer`);
  if (poll.is_anonymous) parts.push('anonymous');
  return parts.join(' · ');
}

/**
 * Appends voter mentions under each answer while they fit `budget`
 * characters; the rest are summed up as "and N more". A poll too large to
 * list its voters (`voters` null, behaviour §15) shows its counts alone.
 */
function withVoters(blocks: string[], poll: PollView, lists: NonNullable<Tally['voters']>, budget: number): string[] {
  let left = budget;
  return blocks.map((block, i) => {
    const answer = poll.answers[i]!;
    const voters = [...new Set(lists.get(answer.answer_id) ?? [])];
    if (voters.length === 0) return block;
    const reserve = 24; // room for "… and 99999 more"
    let line = '\n↳ ';
    let shown = 0;
    for (const voter of voters) {
      const mention = `${shown ? ', ' : ''}<@${voter}>`;
      if (line.length + mention.length + reserve > left) break;
      line += mention;
      shown++;
    }
    if (shown === 0) {
      const summary = `\n↳ ${plural(voters.length, 'member')}`;
      if (summary.length > left) return block;
      left -= summary.length;
      return block + summary;
    }
    if (shown < voters.length) line += ` … and ${voters.length - shown} more`;
    left -= line.length;
    return block + line;
  });
}

/** The embed and components of a service poll: counts while open, results when closed. */
export function renderPollMessage(poll: PollView, tally: Tally): PollMessage {
  const closed = poll.status === 'closed';
  const total = tally.total;
  let blocks = poll.answers.map((a) => answerBlock(a, tally.counts.get(a.answer_id) ?? 0, total));
  const endSeconds = Math.floor((closed ? (poll.closed_at ?? poll.end_time) : poll.end_time) / 1000);
  const timeLine = closed ? `Closed <t:${endSeconds}:f> · final results` : `Ends <t:${endSeconds}:R> (<t:${endSeconds}:f>)`;
  const head = poll.description ? `${poll.description}\n\n` : '';
  const footer = footerOf(poll, total);
  const author = closed ? 'Poll closed: results' : 'Poll';
  const assemble = (parts: string[]) => `${head}${parts.join('\n\n')}\n\n${timeLine}`;
  if (closed && !poll.is_anonymous && tally.voters) {
    const fixed = assemble(blocks).length;
    const budget = Math.min(MESSAGE_LIMITS.description - fixed, MESSAGE_LIMITS.embedTotal - fixed - poll.question.length - footer.length - author.length);
    blocks = withVoters(blocks, poll, tally.voters, Math.max(0, budget));
  }
  const embed: Embed = {
    author: { name: author },
    title: poll.question,
    description: assemble(blocks),
    color: closed ? COLOR_CLOSED : COLOR_OPEN,
    footer: { text: footer },
    timestamp: new Date(poll.end_time).toISOString(),
  };
  return { embeds: [embed], components: renderComponents(poll, closed), allowed_mentions: { parse: [] } };
}

/** Buttons (rows of 5) or one dropdown; disabled once the poll is closed. Emoji polls vote by reactions. */
export function renderComponents(poll: Pick<PollView, 'poll_id' | 'poll_answer_type' | 'answers'>, disabled: boolean): ActionRow[] {
  if (poll.poll_answer_type === AnswerType.Buttons) {
    const rows: ActionRow[] = [];
    poll.answers.forEach((answer, i) => {
      const button: Button = {
        type: ComponentType.Button,
        style: ButtonStyle.Primary,
        label: labelOf(answer),
        custom_id: buttonCustomId(poll.poll_id, answer.answer_id),
        disabled,
      };
      const emoji = componentEmoji(answer);
      if (emoji) button.emoji = emoji;
      if (i % BUTTONS_PER_ROW === 0) rows.push({ type: ComponentType.ActionRow, components: [] });
      rows[rows.length - 1]!.components.push(button);
    });
    return rows;
  }
  if (poll.poll_answer_type === AnswerType.Dropdown) {
    const select: StringSelect = {
      type: ComponentType.StringSelect,
      custom_id: selectCustomId(poll.poll_id),
      placeholder: disabled ? 'This poll is closed' : 'Choose an answer',
      min_values: 1,
      max_values: 1,
      disabled,
      options: poll.answers.map((answer) => {
        const option: StringSelect['options'][number] = { label: labelOf(answer), value: String(answer.answer_id) };
        if (answer.description) option.description = answer.description;
        const emoji = componentEmoji(answer);
        if (emoji) option.emoji = emoji;
        return option;
      }),
    };
    return [{ type: ComponentType.ActionRow, components: [select] }];
  }
  return [];
}

/** A fingerprint of a rendered message: equal renders are not sent twice. */
export function renderHash(message: PollMessage): string {
  return createHash('sha256').update(JSON.stringify(message)).digest('base64url').slice(0, 22);
}

/**
 * Why a service poll could not be shown within the platform's embed limits
 * even with the largest counts, or null when it fits.
 */
export function renderProblem(poll: PollView): string | null {
  if (poll.question.length > MESSAGE_LIMITS.title) {
    return `Field 'question' must be at most ${MESSAGE_LIMITS.title} characters for a service poll (it is the title of the poll's embed).`;
  }
  const huge = 9_999_999;
  const tally: Tally = {
    counts: new Map(poll.answers.map((a) => [a.answer_id, huge])),
    voters: new Map(),
    total: huge * Math.max(1, poll.answers.length),
  };
  if (fitLimits(renderPollMessage({ ...poll, status: 'open' }, tally), 'check')) {
    return `The poll's description and answers are too long to show: together they must fit the platform's ${MESSAGE_LIMITS.description}-character embed description; shorten the description or the answer texts.`;
  }
  return null;
}

/** The body posting a platform-native poll; `hours` is the platform's duration (1..768). */
export function renderNativePoll(poll: Pick<Poll, 'question' | 'answers' | 'is_multi_select'>, hours: number): MessageCreate {
  return {
    poll: {
      question: { text: poll.question },
      answers: poll.answers.map((answer) => {
        // The API's poll emoji takes `id` or `name` alone (PollEmojiCreateRequest); discord-api-types types the poll as answered, with both.
        const media: { text: string; emoji?: APIPartialEmoji } = { text: answer.answer_text };
        const emoji = componentEmoji(answer);
        if (emoji) media.emoji = (answer.emoji_id ? { id: answer.emoji_id } : emoji) as APIPartialEmoji;
        return { poll_media: media };
      }),
      duration: hours,
      allow_multiselect: poll.is_multi_select,
      layout_type: 1,
    },
    allowed_mentions: { parse: [] },
  };
}
