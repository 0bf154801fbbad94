import { endpoint } from '../../shared/http/endpoint.js';
import { listPanels } from './panels.js';
import { ListPanelsQuery } from './schemas.js';

export const handler = endpoint({ query: ListPanelsQuery }, ({ query }) => listPanels(query.guild_id, query.page, query.page_size));
