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
const bytes = (data: Data) =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

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

const hostOf = (prefix: string, region: string) => `${prefix}.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;

/** Sends the call and answers the parsed JSON answer; a refusal throws, naming the service's answer. */
export async function awsJson<T>(call: AwsJsonCall): Promise<T> {
  const host = hostOf(call.endpointPrefix ?? call.service, call.region);
  const headers = { host, 'content-type': `application/x-amz-json-${call.jsonVersion}`, 'x-amz-target': call.target };
  return signedCall<T>(call.service, call.region, { method: 'POST', host, path: '/', query: {}, headers, body: JSON.stringify(call.body) }, call.target);
}

/**
 * One call of an AWS REST-JSON API (API Gateway's management API): a
 * method and path, an optional query and JSON body. Answers the parsed
 * answer (`{}` for an empty one); a refusal throws an {@link AwsRefusal}.
 */
export interface AwsRestCall {
  service: string;
  region: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

export async function awsRest<T>(call: AwsRestCall): Promise<T> {
  const host = hostOf(call.service, call.region);
  const body = call.body ? JSON.stringify(call.body) : undefined;
  const headers: Record<string, string> = { host, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) };
  return signedCall<T>(
    call.service,
    call.region,
    { method: call.method, host, path: call.path, query: call.query ?? {}, headers, body },
    `${call.method} ${call.path}`,
  );
}

/** An AWS API's refusal: its HTTP status and (the start of) its answer. */
export class AwsRefusal extends Error {
  constructor(
    readonly status: number,
    what: string,
    answer: string,
  ) {
    super(`${what} answered ${status}: ${answer.slice(0, 300)}`);
    this.name = 'AwsRefusal';
  }
}

interface Unsigned {
  method: string;
  host: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
}

/** Signs and sends one request; throttling, 5xx and network errors are tried again. */
async function signedCall<T>(service: string, region: string, request: Unsigned, what: string): Promise<T> {
  const signer = new SignatureV4({ service, region, sha256: Sha256, credentials: environmentCredentials });
  const { host } = request;
  const signed = await signer.sign({
    method: request.method,
    protocol: 'https:',
    hostname: host,
    path: request.path,
    query: request.query,
    headers: request.headers,
    body: request.body,
  });
  // fetch sets Host itself, from the same URL.
  const { host: _host, ...headers } = signed.headers;
  const search = new URLSearchParams(request.query).toString();
  const url = `https://${host}${request.path}${search ? `?${search}` : ''}`;
  for (let attempt = 1; ; attempt++) {
    let retry: boolean;
    let failure: Error;
    try {
      const response = await fetch(url, { method: request.method, headers, body: request.body, signal: AbortSignal.timeout(5000) });
      const text = await response.text();
      if (response.ok) return (text ? JSON.parse(text) : {}) as T;
      failure = new AwsRefusal(response.status, what, text);
      retry = response.status >= 500 || response.status === 429;
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      retry = true;
    }
    if (!retry || attempt >= ATTEMPTS) throw failure;
    await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
  }
}
