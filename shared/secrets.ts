import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * A secret given either as a plain environment variable (local mode) or as
 * the ARN of a Secrets Manager secret (AWS; CDK passes `<NAME>_SECRET_ARN`).
 * A fetched value is kept a few minutes, so a rotated secret takes effect
 * soon without a read on every request.
 */
const CACHE_MS = 5 * 60 * 1000;
const cache = new Map<string, { value: string; until: number }>();
let client: SecretsManagerClient | undefined;

export async function configuredSecret(name: string): Promise<string | null> {
  const plain = process.env[name];
  if (plain) return plain;
  const arn = process.env[`${name}_SECRET_ARN`];
  if (!arn) return null;
  const hit = cache.get(arn);
  if (hit && hit.until > Date.now()) return hit.value;
  client ??= new SecretsManagerClient({});
  const out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  const value = out.SecretString?.trim() ?? '';
  if (!value) return null;
  cache.set(arn, { value, until: Date.now() + CACHE_MS });
  return value;
}
