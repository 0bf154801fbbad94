/**
 * Answering the member of an interaction (contract 7): when a request
 * carries `application_id` and `token`, the member is told through the
 * interaction webhook what happened, or what went wrong. Best effort: the
 * answer to the bot never depends on it.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { Handler } from '../../shared/http/endpoint.js';
import { parseJsonLossless } from '../../shared/http/json.js';
import { parseSnowflake } from '../../shared/ids.js';
import { createPlatformClient } from '../../shared/platform/client.js';

/** An interaction to answer. */
export interface Interaction {
  applicationId: string;
  token: string;
}

/** Interaction tokens live 15 minutes and the member is waiting: little patience, few retries. */
const answers = createPlatformClient({ maxAttempts: 2, timeoutMs: 3000, maxRateLimitWaitMs: 3000 });

/** The interaction named by a body's `application_id` and `token`, or null. */
export function interactionOf(body: { application_id?: string | null; token?: string | null }): Interaction | null {
  return body.application_id && body.token ? { applicationId: body.application_id, token: body.token } : null;
}

/** Tells the member `text` in an ephemeral message; never throws. */
export async function tellMember(interaction: Interaction | null, text: string): Promise<void> {
  if (!interaction) return;
  try {
    await answers.answerInteraction(interaction.applicationId, interaction.token, text.slice(0, 2000));
  } catch (error) {
    console.warn(JSON.stringify({ level: 'warn', msg: 'polls: interaction answer failed', error: error instanceof Error ? error.message : String(error) }));
  }
}

/** Errors a member can act on; shape and credential errors are the bot's to fix. */
const NOT_FOR_MEMBERS = new Set([400, 401, 405, 413]);

function interactionOfEvent(event: APIGatewayProxyEvent): Interaction | null {
  try {
    const text = event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
    const body = text ? (parseJsonLossless(text) as Record<string, unknown>) : null;
    if (!body || typeof body !== 'object') return null;
    const applicationId = parseSnowflake(body.application_id);
    const token = typeof body.token === 'string' && body.token !== '' ? body.token : null;
    return applicationId && token ? { applicationId, token } : null;
  } catch {
    return null;
  }
}

/**
 * Wraps an endpoint so that when it fails, the member of the interaction in
 * its body is told why: `lead` then the error's message ("Could not close
 * the poll. Unprocessable Entity! ..."). Successes are told by the use case,
 * which knows what happened.
 */
export function answeringFailures(handler: Handler, lead: string): Handler {
  const wrapped = async (event: APIGatewayProxyEvent, context: Context) => {
    const result = await handler(event, context);
    if (result.statusCode >= 400 && !NOT_FOR_MEMBERS.has(result.statusCode)) {
      const interaction = interactionOfEvent(event);
      if (interaction) {
        let message = '';
        try {
          message = (JSON.parse(result.body) as { error?: { message?: string } }).error?.message ?? '';
        } catch {
          message = '';
        }
        await tellMember(interaction, `${lead} ${message}`.trim());
      }
    }
    return result;
  };
  return Object.assign(wrapped, { spec: handler.spec }) as Handler;
}
