import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { notFound } from '../errors.js';
import { errorResponse } from './envelope.js';
import type { EndpointSpec, Handler } from './endpoint.js';
import type { Method, Route } from './route.js';

/**
 * One handler file serving many routes of one shape, each with its own
 * schemas: routes declared as data (the statistic families). Every route
 * still gets its own Lambda function from the one bundle; at run time the
 * handler picks the route's endpoint by the request's method and resource
 * path, and tools (OpenAPI, the test client) read each route's own spec
 * through `loadHandler(route)`.
 */
export type FamilyHandler = Handler & {
  /** The spec of one route of the family, or undefined for a route it does not serve. */
  specFor(route: Pick<Route, 'method' | 'path'>): EndpointSpec | undefined;
};

const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/**
 * Builds the handler from the family's endpoints, keyed by method and route
 * path. Each endpoint is built on first use, so a function's cold start
 * builds the schemas of its own route only, not of the whole family.
 */
export function routeFamily(endpoints: { method: Method; path: string; build: () => Handler }[]): FamilyHandler {
  const builders = new Map(endpoints.map((e) => [keyOf(e.method, e.path), e.build]));
  const built = new Map<string, Handler>();
  const endpointOf = (key: string): Handler | undefined => {
    let handler = built.get(key);
    if (!handler) {
      const build = builders.get(key);
      if (!build) return undefined;
      built.set(key, (handler = build()));
    }
    return handler;
  };
  const first = endpoints[0];
  if (!first) throw new Error('routeFamily needs at least one endpoint');
  const handler = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
    const method = event.httpMethod === 'HEAD' ? 'GET' : event.httpMethod;
    const chosen = endpointOf(keyOf(method ?? '', event.resource ?? ''));
    if (chosen) return chosen(event, context);
    // A deployment wired this bundle to a route it does not serve: answer as for an unknown route.
    return errorResponse(notFound(`No route ${method} ${event.resource}.`));
  };
  Object.defineProperty(handler, 'spec', { get: () => endpointOf(keyOf(first.method, first.path))!.spec });
  return Object.assign(handler, {
    specFor: (route: Pick<Route, 'method' | 'path'>) => endpointOf(keyOf(route.method, route.path))?.spec,
  }) as FamilyHandler;
}
