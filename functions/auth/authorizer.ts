import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { type AuthorizerContext, type Caller, contextOf } from '#shared/auth/caller.js';
import { authorize } from '#shared/auth/credentials.js';
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
