import { endpoint } from '#shared/http/endpoint.js';
import { listPanels } from './panels.js';
import { ListPanelsQuery, PanelsPage } from './schemas.js';

export const handler = endpoint({ query: ListPanelsQuery, response: PanelsPage }, ({ query }) => listPanels(query.guild_id, query.page, query.page_size));
