/**
 * The poll rules that are not a single field's type (behaviour §3.6 and §7):
 * durations, the platform's limits per poll type, answer and emoji rules.
 * Pure: each check answers the reason of the first broken rule, or null,
 * worded as "Field '<name>' ...".
 */
import { AnswerType, PollType } from './model.js';
import { BUTTON_LABEL_MAX, OPTION_TEXT_MAX, type PollView, labelOf, renderProblem } from './render.js';

/** `poll_duration`: a whole number and one unit letter. */
export const DURATION_PATTERN = /^[1-9][0-9]*[smhd]$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export const HOUR_MS = UNIT_MS.h;
export const DAY_MS = UNIT_MS.d;

/** Platform-native polls: the platform's own limits. */
export const NATIVE = { questionMax: 300, answersMax: 10, answerTextMax: 55, minDurationMs: HOUR_MS, maxDurationMs: 32 * DAY_MS } as const;
/**
 * Service polls: up to 25 answers (20 with emoji reactions, the platform's
 * reactions per message); the question is the embed title (256). Durations
 * from 1 second (short polls) to 365 days, and answer and description
 * lengths, are this service's choice: everything must still fit one embed.
 */
export const SERVICE = {
  questionMax: 256,
  answersMax: 25,
  emojiAnswersMax: 20,
  answerTextMax: 100,
  descriptionMax: 1000,
  maxDurationMs: 365 * DAY_MS,
} as const;
/** A member's votes on one answer (service polls). */
export const MAX_VOTES_PER_ANSWER = 100;
/** Poll IDs given by the bot (`handler/create`) must be usable in a path. */
export const POLL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A duration in milliseconds, or null when it does not match {@link DURATION_PATTERN}. */
export function parseDuration(text: string): number | null {
  if (!DURATION_PATTERN.test(text)) return null;
  const amount = Number(text.slice(0, -1));
  const ms = amount * UNIT_MS[text.slice(-1) as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : null;
}

/** The platform counts native poll durations in whole hours; a partial hour rounds up (the service ends the poll on time). */
export const nativeHours = (durationMs: number) => Math.min(768, Math.max(1, Math.ceil(durationMs / HOUR_MS)));

export function durationProblem(text: string, pollType: number): string | null {
  const ms = parseDuration(text);
  if (ms === null) {
    return `Field 'poll_duration' must be a whole number followed by s, m, h or d, such as 45s, 30m, 12h or 7d (^[1-9][0-9]*[smhd]$), not '${text.slice(0, 40)}'.`;
  }
  if (pollType === PollType.Native && (ms < NATIVE.minDurationMs || ms > NATIVE.maxDurationMs)) {
    return "Field 'poll_duration' must be from 1 hour to 32 days for a platform-native poll (poll_type 1).";
  }
  if (pollType === PollType.Service && ms > SERVICE.maxDurationMs) return "Field 'poll_duration' must be at most 365 days.";
  return null;
}

/** Emoji characters and the joiners, modifiers and selectors that build one emoji out of several. */
const EMOJI_PARTS = /^[\p{Emoji_Component}\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200D\uFE0F\u20E3]{1,32}$/u;
const EMOJI_CORE = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u;
const CUSTOM_EMOJI_NAME = /^[A-Za-z0-9_]{2,32}$/;

/** Why an answer's emoji cannot be used, or null. */
export function emojiProblem(field: string, name: string | null, id: string | null): string | null {
  if (name === null) return id === null ? null : `Field '${field}.emoji_name' must be the custom emoji's name when emoji_id is set.`;
  if (id !== null)
    return CUSTOM_EMOJI_NAME.test(name) ? null : `Field '${field}.emoji_name' must be the custom emoji's name (2 to 32 letters, digits or underscores).`;
  return EMOJI_PARTS.test(name) && EMOJI_CORE.test(name)
    ? null
    : `Field '${field}.emoji_name' must be one unicode emoji when emoji_id is null (for a custom emoji send its name and emoji_id).`;
}

/** The identity of an emoji within a poll: a custom one by ID, a unicode one without variation selectors. */
export function emojiIdentity(name: string, id: string | null): string {
  return id ? `id:${id}` : `u:${name.replace(/\uFE0F/g, '')}`;
}

/** An answer as given in a request. */
export interface AnswerInput {
  answer_text: string;
  label: string | null;
  description: string | null;
  emoji_name: string | null;
  emoji_id: string | null;
  votes?: unknown[] | null;
}

/** Why the answers cannot make a poll of this type, or null. */
export function answersProblem(pollType: number, answerType: number | null, answers: readonly AnswerInput[]): string | null {
  const native = pollType === PollType.Native;
  const max = native ? NATIVE.answersMax : answerType === AnswerType.Emoji ? SERVICE.emojiAnswersMax : SERVICE.answersMax;
  const kind = native ? 'a platform-native poll' : answerType === AnswerType.Emoji ? 'a service poll with emoji answers' : 'a service poll';
  if (answers.length < 1 || answers.length > max) return `Field 'answers' must hold 1 to ${max} answers for ${kind}, not ${answers.length}.`;
  const textMax = native ? NATIVE.answerTextMax : SERVICE.answerTextMax;
  const seen = new Set<string>();
  for (const [i, answer] of answers.entries()) {
    const field = `answers[${i}]`;
    if (answer.votes && answer.votes.length > 0) return `Field '${field}.votes' must be an empty list: a new poll has no votes.`;
    if (answer.answer_text.length < 1 || answer.answer_text.length > textMax) {
      return `Field '${field}.answer_text' must be 1 to ${textMax} characters for ${kind}.`;
    }
    const emoji = emojiProblem(field, answer.emoji_name, answer.emoji_id);
    if (emoji) return emoji;
    if (!native && answerType === AnswerType.Emoji) {
      if (!answer.emoji_name) return `Field '${field}.emoji_name' is required: members vote on emoji polls (poll_answer_type 1) by reacting with it.`;
      const identity = emojiIdentity(answer.emoji_name, answer.emoji_id);
      if (seen.has(identity)) return `Field '${field}.emoji_name' repeats the emoji of an earlier answer; each answer needs its own emoji.`;
      seen.add(identity);
    }
    if (!native && answerType === AnswerType.Buttons && labelOf(answer).length > BUTTON_LABEL_MAX) {
      return `Field '${field}.label' must be at most ${BUTTON_LABEL_MAX} characters (a button label; without a label the answer_text is shown and must fit).`;
    }
    if (!native && answerType === AnswerType.Dropdown) {
      if (labelOf(answer).length > OPTION_TEXT_MAX) {
        return `Field '${field}.label' must be at most ${OPTION_TEXT_MAX} characters (a dropdown option; without a label the answer_text is shown and must fit).`;
      }
      if (answer.description && answer.description.length > OPTION_TEXT_MAX)
        return `Field '${field}.description' must be at most ${OPTION_TEXT_MAX} characters.`;
    }
  }
  return null;
}

/** What a service poll's settings must be. */
export function serviceFieldsProblem(fields: {
  poll_answer_type: number | null | undefined;
  is_anonymous: boolean | null | undefined;
  max_votes_per_answer: number | null | undefined;
  description: string | null | undefined;
}): string | null {
  if (fields.poll_answer_type == null || ![AnswerType.Emoji, AnswerType.Buttons, AnswerType.Dropdown].includes(fields.poll_answer_type as 1 | 2 | 3)) {
    return "Field 'poll_answer_type' must be 1 (emoji reactions), 2 (buttons) or 3 (dropdown) for a service poll (poll_type 2).";
  }
  if (fields.is_anonymous == null) return "Field 'is_anonymous' is required for a service poll (poll_type 2).";
  return maxVotesProblem(fields.max_votes_per_answer) ?? descriptionProblem(fields.description);
}

export function maxVotesProblem(value: number | null | undefined): string | null {
  if (value == null || value < 1 || value > MAX_VOTES_PER_ANSWER) {
    return `Field 'max_votes_per_answer' must be from 1 to ${MAX_VOTES_PER_ANSWER} for a service poll.`;
  }
  return null;
}

export function descriptionProblem(value: string | null | undefined): string | null {
  return value && value.length > SERVICE.descriptionMax ? `Field 'description' must be at most ${SERVICE.descriptionMax} characters.` : null;
}

export function questionProblem(question: string, pollType: number): string | null {
  const max = pollType === PollType.Native ? NATIVE.questionMax : SERVICE.questionMax;
  if (question.length < 1 || question.length > max) {
    return `Field 'question' must be 1 to ${max} characters for ${pollType === PollType.Native ? 'a platform-native poll' : 'a service poll'}.`;
  }
  return null;
}

/** Whether the whole service poll fits one message; see {@link renderProblem}. */
export const fitProblem = (poll: PollView) => renderProblem(poll);
