/**
 * Interaction webhooks: what the service answers a member through
 * `POST /webhooks/{application}/{token}` is kept per application and token,
 * so tests can read it back.
 */
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

/** The webhook routes of the platform API; like the platform, they take no bot token. */
export const webhookRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/webhooks/:application/:token',
    public: true,
    handle: ({ state, params, body }) => ({ status: 200, body: messageView(postToWebhook(state, params.application!, params.token!, body)) }),
  },
];
