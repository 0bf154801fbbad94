import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { parseSnowflake } from '../ids.js';
import { moduleOfPath } from '../modules/names.js';
import { log } from '../observe/log.js';
import { SERVICE_MODULE, statusClass } from '../observe/metrics.js';

type LambdaHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Who a request is for, as the endpoint read it (its guild from the query or the body, the acting member). */
interface RequestParties {
  guildId: string | null;
  actor: string | null;
}

const parties = new WeakMap<Context, RequestParties>();

/** The endpoint says whom the request is for, once it has read it; the request's log line names them. */
export function noteParties(context: Context, found: RequestParties): void {
  parties.set(context, found);
}

/** True until this function's first request is answered: the first line of each instance says `cold_start: true`. */
let cold = true;

/**
 * Wraps a handler so every answer (success or failure, whatever middleware
 * made it) writes one log event carrying its metrics (one line in Lambda):
 * the route id (API Gateway's operation name, which CDK and local mode set
 * to the route's id, so it names the method and the path's template), the
 * guild and acting member, the status, the duration, the request ID and
 * whether this was the instance's first request. The module is read from
 * the route's template (a verification page's path is its link), and no
 * header, query value or body is logged beyond those IDs.
 */
export function withRequestLog(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const started = performance.now();
    const coldStart = cold;
    cold = false;
    const result = await handler(event, context);
    const duration = Math.round(performance.now() - started);
    const status = result.statusCode;
    const resource = event.resource ?? event.path ?? '';
    const found = parties.get(context);
    const requestContext = event.requestContext as (APIGatewayProxyEvent['requestContext'] & { operationName?: string }) | undefined;
    log(
      status >= 500 ? 'error' : 'info',
      'request',
      {
        // The route's id names its method and path (CDK and local mode set it); without one, they are the route.
        route: requestContext?.operationName ?? `${event.httpMethod} ${resource}`,
        guild_id: found ? found.guildId : parseSnowflake(event.queryStringParameters?.guild_id),
        actor_id: found?.actor ?? null,
        status,
        duration_ms: duration,
        request_id: context.awsRequestId,
        cold_start: coldStart,
      },
      { requests: 1, ...(status >= 400 ? { errors: 1 } : {}), requestDuration: duration },
      { Module: moduleOfPath(resource) ?? SERVICE_MODULE, StatusClass: statusClass(status) },
    );
    return result;
  };
}
