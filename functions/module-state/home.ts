import { endpoint } from '#shared/http/endpoint.js';
import { HomeAnswer } from './schemas.js';

/** Module home: no input, names the module route (also serves `/handler` homes). */
export const handler = endpoint({ response: HomeAnswer }, ({ module, route }) => ({
  message: `This is the ${module} module route (${route}).`,
}));
