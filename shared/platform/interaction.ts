/**
 * Answering the member of an interaction (behaviour §7): when a request carries
 * an interaction's application ID and token, the member is told through the
 * interaction webhook what happened, or what went wrong. Best effort: the
 * answer to the bot never depends on it.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { Mw } from '../http/middleware.js';
import { parseJsonLossless } from '../http/json.js';
import { AppError } from '../errors.js';
import { parseSnowflake } from '../ids.js';
import { MESSAGE_LIMITS, cutText } from '../templates/limits.js';
import { memberAnswer } from './client.js';
import { createTransport } from './transport.js';
import { errorField, log } from '../observe/log.js';

/** An interaction to answer. */
export interface Interaction {
  applicationId: string;
  token: string;
}

/** Interaction tokens live 15 minutes and the member is waiting: little patience, few retries. */
const send = /* @__PURE__ */ createTransport({ maxAttempts: 2, timeoutMs: 3000, maxRateLimitWaitMs: 3000 });

/** The interaction named by a validated body's `application_id` and `token`, or null. */
export function interactionOf(body: { application_id?: string | null; token?: string | null }): Interaction | null {
  return body.application_id && body.token ? { applicationId: body.application_id, token: body.token } : null;
}

/** The same, read leniently from a request whose body may not have passed validation. */
export function interactionOfRequest(event: APIGatewayProxyEvent): Interaction | null {
  try {
    const text = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const body = text ? (parseJsonLossless(text) as Record<string, unknown> | null) : null;
    if (!body || typeof body !== 'object') return null;
    const applicationId = parseSnowflake(body.application_id);
    const token = typeof body.token === 'string' && body.token !== '' ? body.token : null;
    return applicationId && token ? { applicationId, token } : null;
  } catch {
    return null;
  }
}

/** Tells the member `text` in an ephemeral message; never throws (a failure is logged). */
export async function tellMember(interaction: Interaction | null, text: string): Promise<void> {
  if (!interaction) return;
  try {
    await send(memberAnswer(interaction.applicationId, interaction.token, cutText(text, MESSAGE_LIMITS.content)));
  } catch (error) {
    log('warn', 'could not answer an interaction', { application_id: interaction.applicationId, error: errorField(error) });
  }
}

/** Errors a member can act on; shape and credential errors are the bot's to fix. */
const NOT_FOR_MEMBERS = new Set([400, 401, 405, 413]);

/**
 * An endpoint's `answerFailures`: when the request carries an interaction
 * (`application_id` and `token`) and fails, tells the member why: `lead`
 * then the envelope's message. Runs after the error envelope is built, so the
 * member reads what the bot reads.
 */
export function answerFailures(lead: string): Mw {
  return {
    name: 'answerFailures',
    onError: async (request) => {
      const response = request.response;
      if (!response || response.statusCode < 400 || NOT_FOR_MEMBERS.has(response.statusCode)) return;
      if (request.error instanceof AppError && request.error.botOnly) return;
      const interaction = interactionOfRequest(request.event);
      if (!interaction) return;
      let message = '';
      try {
        message = (JSON.parse(response.body) as { error?: { message?: string } }).error?.message ?? '';
      } catch {
        message = '';
      }
      await tellMember(interaction, `${lead} ${message}`.trim());
    },
  };
}
