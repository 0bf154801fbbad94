/**
 * Makes local mode's global secondary indexes lag, as DynamoDB's do on AWS.
 *
 * dynalite updates its indexes with the write, so local mode alone cannot
 * show a decision that wrongly depends on an index (a check that queries
 * gsi1 for a panel posted a moment ago finds it here, and misses it on AWS).
 * This proxy sits between the handlers and the embedded table: it notes the
 * key of every item written, and removes from each answer to a Query on an
 * index the items written less than `lagMs` ago. Base-table reads are passed
 * through untouched, as strongly consistent reads are on AWS.
 *
 * It is stricter than AWS in one way and gentler in another: an item changed
 * within the lag is hidden rather than shown in its old form, and an item
 * deleted within the lag is gone at once. Both keep the point of the switch:
 * anything that finds a fresh item only through an index fails under it.
 *
 * Set `LOCAL_INDEX_LAG_MS` (or the `indexLagMs` option of startLocal).
 */
import { once } from 'node:events';
import { type IncomingMessage, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import { TABLE } from '#shared/db/table.js';

type AttributeMap = Record<string, Record<string, unknown>>;

const TARGET_PREFIX = 'DynamoDB_20120810.';

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `pk|sk` of an item or key in DynamoDB's JSON form. */
function keyOf(item: AttributeMap | undefined): string | null {
  const pk = item?.[TABLE.partitionKey]?.S;
  const sk = item?.[TABLE.sortKey]?.S;
  return typeof pk === 'string' && typeof sk === 'string' ? `${pk}|${sk}` : null;
}

/** The keys a write request touches. */
function writtenKeys(operation: string, body: Record<string, unknown>): string[] {
  switch (operation) {
    case 'PutItem':
      return [keyOf(body.Item as AttributeMap)].filter((k): k is string => k !== null);
    case 'UpdateItem':
    case 'DeleteItem':
      return [keyOf(body.Key as AttributeMap)].filter((k): k is string => k !== null);
    case 'BatchWriteItem': {
      const requests = Object.values(
        (body.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: AttributeMap }; DeleteRequest?: { Key: AttributeMap } }[]>,
      ).flat();
      return requests.map((r) => keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key)).filter((k): k is string => k !== null);
    }
    case 'TransactWriteItems': {
      type Action = { Put?: { Item: AttributeMap }; Update?: { Key: AttributeMap }; Delete?: { Key: AttributeMap } };
      const actions = (body.TransactItems ?? []) as Action[];
      return actions.map((a) => keyOf(a.Put?.Item ?? a.Update?.Key ?? a.Delete?.Key)).filter((k): k is string => k !== null);
    }
    default:
      return [];
  }
}

/** Starts the lagging proxy in front of `target` (a DynamoDB endpoint URL); answers its own endpoint. */
export async function startIndexLagProxy(target: string, lagMs: number): Promise<{ endpoint: string; server: Server }> {
  const upstream = new URL(target);
  /** Item key -> when it was last written. */
  const written = new Map<string, number>();

  const forget = (now: number) => {
    for (const [key, at] of written) if (now - at >= lagMs) written.delete(key);
  };

  const server = createServer(async (req, res) => {
    try {
      const body = await readAll(req);
      const operation = String(req.headers['x-amz-target'] ?? '').replace(TARGET_PREFIX, '');
      let parsed: Record<string, unknown> = {};
      try {
        parsed = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        // Not ours to judge: the table answers a malformed request itself.
      }
      const now = Date.now();
      for (const key of writtenKeys(operation, parsed)) written.set(key, now);

      const answer = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
        const out = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (upstreamRes) => {
          readAll(upstreamRes).then((data) => resolve({ status: upstreamRes.statusCode ?? 500, headers: upstreamRes.headers, body: data }), reject);
        });
        out.on('error', reject);
        out.end(body);
      });

      let payload = answer.body;
      if (operation === 'Query' && parsed.IndexName && answer.status === 200) {
        forget(now);
        const result = JSON.parse(payload.toString('utf8')) as { Items?: AttributeMap[]; Count?: number };
        if (result.Items) {
          result.Items = result.Items.filter((item) => {
            const key = keyOf(item);
            return key === null || !written.has(key);
          });
          result.Count = result.Items.length;
          payload = Buffer.from(JSON.stringify(result));
        }
      }
      const headers = { ...answer.headers, 'content-length': String(payload.length), 'x-amz-crc32': String(crc32(payload)) };
      res.writeHead(answer.status, headers);
      res.end(payload);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, server };
}
