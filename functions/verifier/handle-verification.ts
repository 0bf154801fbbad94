import { endpoint } from '#shared/http/endpoint.js';
import { HandleBody, MessageAnswer } from './schemas.js';
import { handleVerification } from './verifier.js';

/** Internal: the entry's own member (X-Acting-User-Id) answers its prompt: a click, or the passphrase modal. */
export const handler = endpoint({ body: HandleBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) =>
  handleVerification(body.verifier_id, actor, body),
);
