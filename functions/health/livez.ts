import { endpoint } from '#shared/http/endpoint.js';
import { statusAnswer } from './schemas.js';

export const handler = endpoint({ response: statusAnswer }, () => ({ status: 'ok' }));
