import { accessTable } from '#shared/http/route.js';
import { routes } from '../routes.js';

/**
 * Each route's access, keyed `METHOD path`: all the authorizer needs of the
 * route table. The rows also hold every route's schemas, so the build gives
 * the authorizer this table as plain data instead (`accessTableInlined` in
 * infra/build-plugins.ts); local mode and the tests read it from the rows.
 */
export const ACCESS = accessTable(routes);
