import { endpoint } from '#shared/http/endpoint.js';
import * as routes from './routes.js';

/** Module home: no input, names the module route (also serves `/handler` homes). */
export const handler = endpoint(routes.home, ({ module, route }) => ({
  message: `This is the ${module} module route (${route}).`,
}));
