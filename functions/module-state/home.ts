import { endpoint } from '../../shared/http/endpoint.js';

/** Module home: no input, names the module route (also serves `/handler` homes). */
export const handler = endpoint({}, ({ module, route }) => ({
  message: `This is the ${module} module route (${route}).`,
}));
