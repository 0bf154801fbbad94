import { awsJson } from './aws-json.js';

/**
 * A secret given either as a plain environment variable (local mode) or as
 * the ARN of a Secrets Manager secret (AWS; CDK passes `<NAME>_SECRET_ARN`).
 * A fetched value is kept a few minutes, so a rotated secret takes effect
 * soon without a read on every request.
 *
 * The secret is read with one signed `GetSecretValue` request (see
 * aws-json.ts), not the SDK's Secrets Manager client: that client would load
 * in every function that can call the platform, read or not.
 */
const CACHE_MS = 5 * 60 * 1000;
const cache = new Map<string, { value: string; until: number }>();

export async function configuredSecret(name: string): Promise<string | null> {
  const plain = process.env[name];
  if (plain) return plain;
  const arn = process.env[`${name}_SECRET_ARN`];
  if (!arn) return null;
  const hit = cache.get(arn);
  if (hit && hit.until > Date.now()) return hit.value;
  // arn:<partition>:secretsmanager:<region>:<account>:secret:<name>
  const region = arn.split(':')[3];
  if (!region) throw new Error(`${name}_SECRET_ARN is not a Secrets Manager ARN: ${arn}`);
  const out = await awsJson<{ SecretString?: string }>({
    service: 'secretsmanager',
    region,
    target: 'secretsmanager.GetSecretValue',
    jsonVersion: '1.1',
    body: { SecretId: arn },
  });
  const value = out.SecretString?.trim() ?? '';
  if (!value) return null;
  cache.set(arn, { value, until: Date.now() + CACHE_MS });
  return value;
}
