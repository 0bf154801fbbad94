/**
 * The embedded table's own thread (see table.ts): dynalite on a loopback
 * port, so the database's work never shares the event loop with the
 * handlers, as DynamoDB never shares a Lambda's. Plain JavaScript, so the
 * thread starts under any loader: under tsx, vitest and bare Node alike.
 */
import { parentPort, workerData } from 'node:worker_threads';
import dynalite from 'dynalite';

const server = dynalite({ path: workerData.path ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.once('message', () => {
  server.closeAllConnections();
  // Closing the server closes its store too (on disk, the LevelDB files); then the thread ends.
  server.close(() => parentPort.close());
});
