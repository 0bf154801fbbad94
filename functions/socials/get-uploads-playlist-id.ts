import { endpoint } from '#shared/http/endpoint.js';
import { uploadsPlaylist } from './internal-ops.js';
import * as routes from './routes.js';

/** Internal: the uploads playlist of a video channel handle (422 for an unknown handle). */
export const handler = endpoint(routes.getUploadsPlaylistId, ({ query }) => uploadsPlaylist(query.channel_handle.identifier));
