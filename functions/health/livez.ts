import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.livez, () => ({ status: 'ok' as const }));
