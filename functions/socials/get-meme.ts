import { endpoint } from '#shared/http/endpoint.js';
import { getMeme } from './internal-ops.js';
import * as routes from './routes.js';

/** Internal: a random meme that is neither nsfw nor a spoiler. */
export const handler = endpoint(routes.getMeme, () => getMeme());
