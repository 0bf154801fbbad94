/**
 * Interaction callbacks on the sandbox platform: `POST
 * /interactions/{id}/{token}/callback` (no bot token, as on the platform)
 * takes type 4 (a message) and type 9 (a modal) as the platform validates
 * them, and keeps every callback so tests and the sandbox page show what a
 * member would have seen. An interaction is answered once (a second
 * callback: 400, code 40060).
 *
 * Control route (under `/_sandbox`): GET /interactions lists the callbacks.
 */
import { FormErrors, SandboxError } from '../errors.js';
import type { Route } from '../router.js';
import type { SandboxState } from '../state.js';

const fieldsOf = (value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

function answer(state: SandboxState, interactionId: string, token: string, body: unknown): void {
  const b = fieldsOf(body);
  const data = fieldsOf(b.data);
  const errors = new FormErrors();
  if (b.type !== 4 && b.type !== 9 && b.type !== 6 && b.type !== 7)
    errors.add(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 4, 5, 6, 7, 8, 9, 10, 12).');
  if (b.type === 4 && (typeof data.content !== 'string' || data.content.length === 0 || data.content.length > 2000) && !Array.isArray(data.embeds)) {
    errors.add(['data', 'content'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 2000 in length.');
  }
  if (b.type === 9) {
    if (typeof data.custom_id !== 'string' || data.custom_id.length === 0 || data.custom_id.length > 100)
      errors.add(['data', 'custom_id'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    if (typeof data.title !== 'string' || data.title.length === 0 || data.title.length > 45)
      errors.add(['data', 'title'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 45 in length.');
    if (!Array.isArray(data.components) || data.components.length === 0 || data.components.length > 5)
      errors.add(['data', 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 5 in length.');
  }
  errors.throwIfAny();
  if (state.interactions.some((i) => i.interaction_id === interactionId)) throw new SandboxError(400, 40060, 'Interaction has already been acknowledged.');
  state.interactions.push({ interaction_id: interactionId, token, type: b.type as number, data, time: new Date().toISOString() });
}

export const interactionRoutes: Route[] = [
  {
    method: 'POST',
    pattern: '/interactions/:interaction/:token/callback',
    public: true,
    handle: ({ state, params, body }) => (answer(state, params.interaction!, params.token!, body), { status: 204 }),
  },
];

export const interactionControlRoutes: Route[] = [
  { method: 'GET', pattern: '/interactions', handle: ({ state }) => ({ status: 200, body: state.interactions }) },
];
