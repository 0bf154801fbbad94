import { endpoint } from '#shared/http/endpoint.js';
import { requestRefresh } from './counters.js';
import { MessageAnswer, UpdateCountersBody } from './schemas.js';

/** Internal: refreshes the counters of one guild (or of every guild) behind the answer. */
export const handler = endpoint({ body: UpdateCountersBody, response: MessageAnswer }, ({ body }) => requestRefresh(body.guild_id));
