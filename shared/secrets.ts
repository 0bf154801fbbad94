import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * A secret given either as a plain environment variable (local mode) or as
 * the ARN of a Secrets Manager secret (AWS; CDK passes `<NAME>_SECRET_ARN`).
 * A fetched value is kept a few minutes, so a rotated secret takes effect
 * soon without a read on every request.
 *
 * The secret is read with one signed `GetSecretValue` request, not the SDK's
 * Secrets Manager client: that client and its credential chain would load in
 * every function that can call the platform. The signer is the one the
 * DynamoDB client already carries; the credentials are the ones Lambda puts
 * in the environment.
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
  const value = (await getSecretValue(arn)).SecretString?.trim() ?? '';
  if (!value) return null;
  cache.set(arn, { value, until: Date.now() + CACHE_MS });
  return value;
}

/** SHA-256 and HMAC-SHA-256 as the signer asks for them. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) => (typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data));

class Sha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

/** `arn:<partition>:secretsmanager:<region>:...` -> the region's endpoint host. */
function endpointOf(arn: string): { region: string; host: string } {
  const [, partition, , region] = arn.split(':');
  if (!partition || !region) throw new Error(`Not a Secrets Manager ARN: ${arn}`);
  return { region, host: `secretsmanager.${region}.${partition === 'aws-cn' ? 'amazonaws.com.cn' : 'amazonaws.com'}` };
}

/** Secrets Manager's GetSecretValue (JSON 1.1 protocol), signed with the function's credentials. */
async function getSecretValue(arn: string): Promise<{ SecretString?: string }> {
  const { region, host } = endpointOf(arn);
  const signer = new SignatureV4({
    service: 'secretsmanager',
    region,
    sha256: Sha256,
    credentials: async () => {
      const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
      if (!accessKeyId || !secretAccessKey) throw new Error('Cannot read a secret: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set.');
      return { accessKeyId, secretAccessKey, sessionToken };
    },
  });
  const body = JSON.stringify({ SecretId: arn });
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'https:',
    hostname: host,
    path: '/',
    query: {},
    headers: { host, 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'secretsmanager.GetSecretValue' },
    body,
  });
  // fetch sets Host itself, from the same URL.
  const { host: _host, ...headers } = signed.headers;
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(`https://${host}/`, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      if (response.ok) return JSON.parse(text) as { SecretString?: string };
      const error = new Error(`Secrets Manager answered ${response.status} to GetSecretValue: ${text.slice(0, 300)}`);
      if (response.status < 500 && response.status !== 429) throw Object.assign(error, { final: true });
      throw error;
    } catch (error) {
      if (attempt >= ATTEMPTS || (error as { final?: boolean }).final) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Attempts of one read: throttling, 5xx and network errors are tried again. */
const ATTEMPTS = 3;
