import { endpoint } from '#shared/http/endpoint.js';
import { recordBatch } from './batch.js';
import type { BatchRecord } from './batch-schemas.js';
import * as routes from './routes.js';

/** Internal: many statistics recordings at once, each at its own event time (CONTRACT §18). */
export const handler = endpoint(routes.recordBatch, ({ body, key }) => recordBatch(body.guild_id, body.records as BatchRecord[], key));
