import { endpoint } from '../../shared/http/endpoint.js';

export const handler = endpoint({}, () => ({ status: 'ok' }));
