import { endpoint } from '#shared/http/endpoint.js';
import { handleVerification } from './verifier.js';
import * as routes from './routes.js';

/** Internal: the entry's own member (X-Acting-User-Id) answers its prompt: a click, or the passphrase modal. */
export const handler = endpoint(routes.handleVerification, ({ body, actor }) => handleVerification(body.verifier_id, actor, body));
