import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * One call of an AWS JSON-protocol API (Secrets Manager, SQS, ...), signed
 * with the credentials Lambda puts in the environment and sent with fetch.
 * An SDK client per service would load its own client code into every
 * function that might call it (25 KiB and milliseconds at each cold start);
 * the signer here is the one the DynamoDB client already carries.
 * Throttling, 5xx and network errors are tried again, twice.
 */
export interface AwsJsonCall {
  /** Signing name, e.g. `secretsmanager`, `sqs`. */
  service: string;
  /** Endpoint host prefix when it differs from `service`. */
  endpointPrefix?: string;
  region: string;
  /** `X-Amz-Target`, e.g. `secretsmanager.GetSecretValue`. */
  target: string;
  /** `1.0` or `1.1`, as the API's protocol says. */
  jsonVersion: '1.0' | '1.1';
  body: Record<string, unknown>;
}

const ATTEMPTS = 3;

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) => (typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data));

/** SHA-256 and HMAC-SHA-256 as the signer asks for them. */
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

async function environmentCredentials() {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) throw new Error('Cannot call AWS: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set.');
  return { accessKeyId, secretAccessKey, sessionToken };
}

/** Sends the call and answers the parsed JSON answer; a refusal throws, naming the service's answer. */
export async function awsJson<T>(call: AwsJsonCall): Promise<T> {
  const host = `${call.endpointPrefix ?? call.service}.${call.region}.${call.region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
  const body = JSON.stringify(call.body);
  const signer = new SignatureV4({ service: call.service, region: call.region, sha256: Sha256, credentials: environmentCredentials });
  const signed = await signer.sign({
    method: 'POST',
    protocol: 'https:',
    hostname: host,
    path: '/',
    query: {},
    headers: { host, 'content-type': `application/x-amz-json-${call.jsonVersion}`, 'x-amz-target': call.target },
    body,
  });
  // fetch sets Host itself, from the same URL.
  const { host: _host, ...headers } = signed.headers;
  for (let attempt = 1; ; attempt++) {
    let retry: boolean;
    let failure: Error;
    try {
      const response = await fetch(`https://${host}/`, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : {}) as T;
      failure = new Error(`${call.target} answered ${response.status}: ${text.slice(0, 300)}`);
      retry = response.status >= 500 || response.status === 429;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      retry = true;
    }
    if (!retry || attempt >= ATTEMPTS) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}
