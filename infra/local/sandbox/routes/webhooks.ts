/**
 * Interaction webhooks: what the service answers a member through
 * `POST /webhooks/{application}/{token}` is kept per application and token,
 * so tests can read it back. `PATCH .../messages/@original` edits the
 * interaction's own answer (its callback 4, or the "thinking…" of a
 * deferred callback 5, which the edit turns into the message), as the
 * platform does; `GET` reads it.
 */
import { SandboxError } from '../errors.js';
import type { Route } from '../router.js';
import { BOT_USER, type SandboxState, type StoredMessage } from '../state.js';
import { messageView } from '../views.js';
import { newMessage } from './messages.js';

/** The key messages of one interaction are kept under. */
export const webhookKey = (applicationId: string, token: string) => `${applicationId}/${token}`;

/** The messages posted to one interaction webhook, oldest first. */
export function webhookMessages(state: SandboxState, applicationId: string, token: string): StoredMessage[] {
  return state.webhooks.get(webhookKey(applicationId, token)) ?? [];
}

function postToWebhook(state: SandboxState, applicationId: string, token: string, body: unknown): StoredMessage {
  // The sandbox does not know the interaction's channel; "0" says so without breaking the Message shape.
  const message = newMessage('0', BOT_USER, body);
  message.webhook_id = applicationId;
  const key = webhookKey(applicationId, token);
  state.webhooks.set(key, [...(state.webhooks.get(key) ?? []), message]);
  return message;
}

/** The interaction's own answer (a callback 4 or 5) under this token; 404 Unknown Message when it has none. */
function originalOf(state: SandboxState, token: string) {
  const callback = state.interactions.find((c) => c.token === token && (c.type === 4 || c.type === 5));
  if (!callback) throw new SandboxError(404, 10008, 'Unknown Message');
  return callback;
}

function originalView(callback: ReturnType<typeof originalOf>) {
  const { flags, ...shown } = callback.data as { flags?: number };
  return { ...messageView(newMessage('0', BOT_USER, shown)), flags: flags ?? 0, interaction_callback_type: callback.type };
}

function editOriginal(state: SandboxState, token: string, body: unknown) {
  const callback = originalOf(state, token);
  // The edit is checked as a message; the answer's ephemeral flag stays as the callback set it.
  newMessage('0', BOT_USER, body);
  const { flags, ...changes } = (body ?? {}) as Record<string, unknown>;
  callback.data = { ...callback.data, ...changes };
  callback.edited = new Date().toISOString();
  return originalView(callback);
}

/** The webhook routes of the platform API; like the platform, they take no bot token. */
export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/webhooks/:application/:token',
    public: true,
    handle: ({ state, params, body }) => ({ status: 200, body: messageView(postToWebhook(state, params.application!, params.token!, body)) }),
  },
  {
    method: 'GET',
    pattern: '/webhooks/:application/:token/messages/@original',
    public: true,
    handle: ({ state, params }) => ({ status: 200, body: originalView(originalOf(state, params.token!)) }),
  },
  {
    method: 'PATCH',
    pattern: '/webhooks/:application/:token/messages/@original',
    public: true,
    handle: ({ state, params, body }) => ({ status: 200, body: editOriginal(state, params.token!, body) }),
  },
];
