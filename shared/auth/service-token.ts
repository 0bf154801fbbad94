import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * The service (bot) token. Local mode passes it as SERVICE_TOKEN; in AWS the
 * authorizer reads it from Secrets Manager (SERVICE_TOKEN_SECRET_ARN) and
 * keeps it for a few minutes, so a rotated secret takes effect soon without a
 * read on every request.
 */
const CACHE_MS = 5 * 60 * 1000;
let cached: { value: string; until: number } | undefined;
let secrets: SecretsManagerClient | undefined;

export async function serviceToken(): Promise<string | null> {
  if (process.env.SERVICE_TOKEN) return process.env.SERVICE_TOKEN;
  const arn = process.env.SERVICE_TOKEN_SECRET_ARN;
  if (!arn) return null;
  if (cached && cached.until > Date.now()) return cached.value;
  secrets ??= new SecretsManagerClient({});
  const out = await secrets.send(new GetSecretValueCommand({ SecretId: arn }));
  const value = out.SecretString?.trim() ?? '';
  if (!value) return null;
  cached = { value, until: Date.now() + CACHE_MS };
  return value;
}
