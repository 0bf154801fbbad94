import { endpoint } from '#shared/http/endpoint.js';
import { getMeme } from './handler-ops.js';
import { MemeAnswer } from './schemas.js';

/** Internal: a random meme that is neither nsfw nor a spoiler. */
export const handler = endpoint({ response: MemeAnswer }, () => getMeme());
