import { AwsRefusal, awsJson, awsRest } from '../aws-json.js';
import type { Caller } from './caller.js';

/**
 * Fair use in AWS (behaviour §13). API Gateway throttles by usage plan, one
 * token bucket per API key of a plan, and takes the API key from the
 * authorizer's answer (`usageIdentifierKey`; the API's key source is
 * AUTHORIZER). So each caller is named by an API Gateway key: the service
 * token by one key on a plan holding the stage's limit, each guild API key by
 * a key of its own on the guild-key plan (`GUILD_KEY_RATE`). Callers never
 * see or send these values: the authorizer, having checked the bearer token,
 * names the key, so a value is an identifier, not a credential, and is
 * derived from what the authorizer already knows (the API and the key ID).
 *
 * CDK creates the service key with the API. A guild key's API Gateway key is
 * created when the guild key is minted, and by the authorizer for a key that
 * has none yet (minted before this, or its registration failed then).
 *
 * Set by CDK: `USAGE_API_ID` (the REST API), `GUILD_USAGE_PLAN_NAME` (the
 * guild-key plan's name, which every guild key's API Gateway key carries as
 * its {@link GUILD_USAGE_KEY_TAG} tag) and `GUILD_USAGE_PLAN_PARAMETER` (the
 * SSM parameter holding the plan's ID). Unset (local mode), there is nothing
 * to register, and local mode holds each key to its rate itself.
 *
 * What the roles may do is as narrow as this (infra/constructs/usage-plans.ts):
 * create keys tagged for the plan, add keys to and read the keys of that plan,
 * delete keys so tagged. Listing the account's API keys (`GET /apikeys`) is not
 * among it, so a key is found, when its creation conflicts, in the plan.
 */

/**
 * The tag every guild key's API Gateway key carries, valued with the guild-key
 * plan's name: IAM lets the key routes delete only keys so tagged.
 */
export const GUILD_USAGE_KEY_TAG = 'guild-modules:usage-plan';

/** What follows the API ID in the service key's value (values are 20 to 128 letters and digits). */
export const SERVICE_USAGE_KEY_SUFFIX = 'servicetoken';

/** The API Gateway key value naming a caller's bucket; `apiId` may be a CDK token. */
export function usageKeyValue(apiId: string, caller: Caller): string {
  if (caller.kind === 'service') return `${apiId}${SERVICE_USAGE_KEY_SUFFIX}`;
  // A dashboard member has a guild key's rate, in a bucket of their own (registered by the authorizer at the session's first request: attachSessionRate).
  return `${apiId}guildkey${Buffer.from(caller.kind === 'guild' ? caller.keyId : dashboardUsageKeyId(caller.userId)).toString('hex')}`;
}

/** The key ID whose usage key holds a dashboard member's rate (registered by `attachSessionRate`, shared/auth/session.ts). */
export const dashboardUsageKeyId = (userId: string) => `dashboard-${userId}`;

/** The usage key the authorizer names for a caller, or null in local mode. */
export function usageIdentifierKey(caller: Caller): string | null {
  const apiId = process.env.USAGE_API_ID;
  return apiId ? usageKeyValue(apiId, caller) : null;
}

const region = () => process.env.AWS_REGION ?? '';
const apigateway = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, options: { query?: Record<string, string>; body?: Record<string, unknown> } = {}) =>
  awsRest<T>({ service: 'apigateway', region: region(), method, path, ...options });

interface Listed<T> {
  item?: T[];
}

/** The guild-key plan's ID, read once per container from the SSM parameter CDK writes it to (it cannot be in the environment: the plan depends on the stage, which depends on every function). */
let guildPlanId: Promise<string> | null = null;
function guildPlan(parameter: string): Promise<string> {
  guildPlanId ??= awsJson<{ Parameter?: { Value?: string } }>({
    service: 'ssm',
    region: region(),
    target: 'AmazonSSM.GetParameter',
    jsonVersion: '1.1',
    body: { Name: parameter },
  })
    .then((out) => {
      const id = out.Parameter?.Value;
      if (!id) throw new Error(`SSM parameter ${parameter} holds no usage plan ID`);
      return id;
    })
    .catch((error: unknown) => {
      guildPlanId = null;
      throw error;
    });
  return guildPlanId;
}

/** The ID of the plan's API Gateway key of this name, if the plan has it. */
async function keyInPlan(planId: string, name: string): Promise<string | null> {
  const out = await apigateway<Listed<{ id: string; name: string }>>('GET', `/usageplans/${planId}/keys`, { query: { nameQuery: name, limit: '500' } });
  return out.item?.find((k) => k.name === name)?.id ?? null;
}

/**
 * Gives a guild API key its API Gateway key on the guild-key plan (again is
 * harmless) and answers that key's ID, or null in local mode.
 */
export async function registerUsageKey(guildId: string, keyId: string): Promise<string | null> {
  const apiId = process.env.USAGE_API_ID;
  const planName = process.env.GUILD_USAGE_PLAN_NAME;
  const planParameter = process.env.GUILD_USAGE_PLAN_PARAMETER;
  if (!apiId || !planName || !planParameter) return null;
  const value = usageKeyValue(apiId, { kind: 'guild', guildId, keyId });
  const planId = await guildPlan(planParameter);
  let id: string;
  try {
    id = (
      await apigateway<{ id: string }>('POST', '/apikeys', {
        body: { name: value, value, enabled: true, description: `Rate of guild ${guildId}'s API key ${keyId}`, tags: { [GUILD_USAGE_KEY_TAG]: planName } },
      })
    ).id;
  } catch (error) {
    // Its value exists: registered before, or by another request at the same moment; then it is in the plan, or soon will be.
    if (!(error instanceof AwsRefusal && error.status === 409)) throw error;
    const found = await keyInPlan(planId, value);
    if (!found)
      throw new Error(
        `An API Gateway key named ${value} exists but is not on the usage plan ${planName} (yet): registration is tried again at the key's next use`,
      );
    return found;
  }
  try {
    await apigateway('POST', `/usageplans/${planId}/keys`, { body: { keyId: id, keyType: 'API_KEY' } });
  } catch (error) {
    if (!(error instanceof AwsRefusal && error.status === 409)) throw error;
  }
  return id;
}

/** Deletes a revoked key's API Gateway key (which also leaves its plan); one already gone is fine. */
export async function dropUsageKey(usageKeyId: string): Promise<void> {
  try {
    await apigateway('DELETE', `/apikeys/${encodeURIComponent(usageKeyId)}`);
  } catch (error) {
    if (!(error instanceof AwsRefusal && error.status === 404)) throw error;
  }
}
