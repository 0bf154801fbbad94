import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { type AuthorizerContext, type Caller, contextOf } from '#shared/auth/caller.js';
import { authorize, isServiceToken } from '#shared/auth/credentials.js';
import { usageIdentifierKey } from '#shared/auth/usage-keys.js';
import { ACCESS } from './access.js';

/**
 * The API Gateway REQUEST authorizer. Missing or unknown credentials throw
 * 'Unauthorized' (API Gateway answers 401); a guild key on an internal route
 * is denied (403). Caching is off, so a revoked key stops working at once.
 * An allowed caller is named to the usage plans by `usageIdentifierKey`: the
 * service token's key, or the guild key's own (shared/auth/usage-keys.ts).
 */
export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  const header = (wanted: string) => Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === wanted)?.[1];
  const verdict = await authorize(header('authorization'), ACCESS[`${event.httpMethod} ${event.resource}`] ?? 'internal', {
    method: event.httpMethod,
    cookie: header('cookie'),
    csrf: header('x-csrf-token'),
  });
  if (!verdict.allow && verdict.status === 401) throw new Error('Unauthorized');
  const context: AuthorizerContext | undefined = verdict.allow ? contextOf(verdict.caller) : undefined;
  const usageKey = verdict.allow ? usageIdentifierKey(verdict.caller) : null;
  return {
    principalId: verdict.allow ? principalOf(verdict.caller) : 'denied',
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: verdict.allow ? 'Allow' : 'Deny', Resource: event.methodArn }],
    },
    ...(context ? { context } : {}),
    ...(usageKey ? { usageIdentifierKey: usageKey } : {}),
  };
}

function principalOf(caller: Caller): string {
  if (caller.kind === 'service') return 'service';
  return caller.kind === 'guild' ? `guild:${caller.guildId}` : `member:${caller.userId}`;
}

/** What the HTTP API's authorizer answers (simple responses, payload format 2.0). */
export interface ServiceDoorResult {
  isAuthorized: boolean;
  context?: AuthorizerContext;
}

/**
 * The authorizer of the bot's door, the HTTP API (infra/constructs/bot-api.ts):
 * the service token alone. A guild key is refused there without being
 * looked up, so guild keys only ever pass the REST API, where their usage
 * plans count them. API Gateway caches the answer by the `Authorization`
 * header, so this runs about once per token every few minutes, not per
 * request; the service token is not revoked as a guild key is.
 */
export async function serviceTokenHandler(event: { headers?: Record<string, string | undefined> | null }): Promise<ServiceDoorResult> {
  const header = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return (await isServiceToken(header)) ? { isAuthorized: true, context: { caller: 'service' } } : { isAuthorized: false };
}
