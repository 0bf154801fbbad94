/**
 * The embedded table's own thread (see table.ts): dynalite on a loopback
 * port, so the database's work never shares the event loop with the
 * handlers, as DynamoDB never shares a Lambda's. Plain JavaScript, so the
 * thread starts under any loader: under tsx, vitest and bare Node alike.
 *
 * dynalite has no TransactWriteItems, which a giveaway's enter and a poll's
 * vote use (the entrant's or voter's item and the count in one atomic
 * request). This
 * thread answers it: the transactions run one at a time, each action as the
 * single conditional write it names (its old image kept), and when one
 * condition fails the writes before it are put back and the request is
 * refused as DynamoDB refuses it (TransactionCanceledException with a
 * reason per action). Asked for its consumed capacity, a transaction
 * answers twice the units of its writes, as DynamoDB bills them. A single
 * write landing between two actions of a transaction can see the first one
 * for that moment, which DynamoDB never shows; every condition still
 * decides on the item as it is. A transaction naming one item twice is
 * refused before anything runs, as DynamoDB refuses it.
 */
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';

const TARGET = 'DynamoDB_20120810.';
const server = dynalite({ path: workerData.path ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
const [handle] = server.listeners('request');
server.removeAllListeners('request');

const readAll = async (stream) => {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/** One request to dynalite itself, as a client would send it. */
function call(headers, operation, body) {
  const payload = Buffer.from(JSON.stringify(body));
  const { port } = server.address();
  return new Promise((resolve, reject) => {
    const out = request(
      {
        hostname: '127.0.0.1',
        port,
        method: 'POST',
        path: '/',
        headers: { ...headers, 'x-amz-target': `${TARGET}${operation}`, 'content-length': String(payload.length) },
      },
      (res) => readAll(res).then((data) => resolve({ status: res.statusCode, body: JSON.parse(data.toString('utf8') || '{}') }), reject),
    );
    out.on('error', reject);
    out.end(payload);
  });
}

/** A transaction action as the single write it names, answering the item's old image. */
function singleWrite(action) {
  const expression = (a) => ({
    ConditionExpression: a.ConditionExpression,
    ExpressionAttributeNames: a.ExpressionAttributeNames,
    ExpressionAttributeValues: a.ExpressionAttributeValues,
    ReturnValues: 'ALL_OLD',
    ReturnConsumedCapacity: 'TOTAL',
  });
  if (action.Put) return ['PutItem', { TableName: action.Put.TableName, Item: action.Put.Item, ...expression(action.Put) }];
  if (action.Delete) return ['DeleteItem', { TableName: action.Delete.TableName, Key: action.Delete.Key, ...expression(action.Delete) }];
  if (action.Update)
    return [
      'UpdateItem',
      { TableName: action.Update.TableName, Key: action.Update.Key, UpdateExpression: action.Update.UpdateExpression, ...expression(action.Update) },
    ];
  return null;
}

/** The key an action writes: a put's is in its item (the table's keys are pk and sk, see shared/db/table.ts). */
const keyOf = (action) => (action.Put ? { pk: action.Put.Item.pk, sk: action.Put.Item.sk } : (action.Delete ?? action.Update).Key);

let queue = Promise.resolve();

/** A key as text, to compare the keys of a transaction's actions. */
const keyText = (key) => JSON.stringify([key.pk, key.sk]);

async function transact(headers, body) {
  const actions = body.TransactItems ?? [];
  // DynamoDB refuses a transaction naming one item twice before it runs any action (DynamoDB Local does too).
  const keys = actions.filter(singleWrite).map((action) => keyText(keyOf(action)));
  if (new Set(keys).size !== keys.length)
    return {
      status: 400,
      body: { __type: 'com.amazon.coral.validate#ValidationException', message: 'Transaction request cannot include multiple operations on one item' },
    };
  const done = [];
  let units = 0;
  for (let i = 0; i < actions.length; i++) {
    const write = singleWrite(actions[i]);
    if (!write)
      return {
        status: 400,
        body: { __type: 'com.amazon.coral.validate#ValidationException', message: 'Local mode answers Put, Update and Delete actions only' },
      };
    const answer = await call(headers, write[0], write[1]);
    if (answer.status === 200) {
      done.push({ action: actions[i], old: answer.body.Attributes });
      units += 2 * (answer.body.ConsumedCapacity?.CapacityUnits ?? 0);
      continue;
    }
    // Put back what the earlier actions changed, newest first.
    for (const { action, old } of done.reverse()) {
      const table = (action.Put ?? action.Delete ?? action.Update).TableName;
      if (old) await call(headers, 'PutItem', { TableName: table, Item: old });
      else await call(headers, 'DeleteItem', { TableName: table, Key: keyOf(action) });
    }
    const failed = String(answer.body.__type ?? '').endsWith('ConditionalCheckFailedException');
    if (!failed) return answer;
    const reasons = actions.map((_, j) => (j === i ? { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' } : { Code: 'None' }));
    return {
      status: 400,
      body: {
        __type: 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException',
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
        CancellationReasons: reasons,
      },
    };
  }
  if (!body.ReturnConsumedCapacity || body.ReturnConsumedCapacity === 'NONE' || actions.length === 0) return { status: 200, body: {} };
  const table = (actions[0].Put ?? actions[0].Delete ?? actions[0].Update).TableName;
  return { status: 200, body: { ConsumedCapacity: [{ TableName: table, CapacityUnits: units }] } };
}

server.on('request', (req, res) => {
  if (req.headers['x-amz-target'] !== `${TARGET}TransactWriteItems`) return handle(req, res);
  readAll(req).then((data) => {
    const headers = { ...req.headers };
    delete headers['x-amz-target'];
    delete headers['content-length'];
    const run = queue.then(() => transact(headers, JSON.parse(data.toString('utf8'))));
    queue = run.catch(() => undefined);
    run.then(
      (answer) => {
        const payload = Buffer.from(JSON.stringify(answer.body));
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(payload.length) });
        res.end(payload);
      },
      (error) => {
        res.writeHead(500, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: String(error) }));
      },
    );
  });
});

server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.once('message', () => {
  server.closeAllConnections();
  // Closing the server closes its store too (on disk, the LevelDB files); then the thread ends.
  server.close(() => parentPort.close());
});
