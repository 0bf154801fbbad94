import { endpoint } from '#shared/http/endpoint.js';
import { uploadsPlaylist } from './handler-ops.js';
import { UploadsAnswer, UploadsQuery } from './schemas.js';

/** Internal: the uploads playlist of a video channel handle (422 for an unknown handle). */
export const handler = endpoint({ query: UploadsQuery, response: UploadsAnswer }, ({ query }) => uploadsPlaylist(query.channel_handle.identifier));
