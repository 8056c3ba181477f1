// A Redis server for the queue tests. CI (.ci/run) starts one and names it in HOOKMD_TEST_REDIS; tests that
// restart Redis start their own redis-server on a free port, with an append-only file so that the queue
// survives the restart, as a production Redis for BullMQ is configured. Without redis-server the queue tests
// skip, unless HOOKMD_REQUIRE_REDIS=1 (set by CI), where they fail instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether redis-server can be run here. */
export const HAVE_REDIS_SERVER: boolean = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;
/** Whether a missing Redis must fail the tests (CI) rather than skip them. */
export const REQUIRE_REDIS: boolean = process.env.HOOKMD_REQUIRE_REDIS === '1';
/** Whether the queue tests run: a server given by CI, or one we can start. */
export const REDIS_TESTS: boolean = HAVE_REDIS_SERVER || process.env.HOOKMD_TEST_REDIS !== undefined || REQUIRE_REDIS;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A redis-server child process on 127.0.0.1. */
export class RedisServer {
  readonly port: number;
  readonly dir: string;
  #child: ChildProcess | undefined;

  private constructor(port: number, dir: string) {
    this.port = port;
    this.dir = dir;
  }

  /** Starts a server with an append-only file in a fresh directory. */
  static async start(): Promise<RedisServer> {
    if (!HAVE_REDIS_SERVER) throw new Error('redis-server is not installed (apt-get install redis-server)');
    const server = new RedisServer(await freePort(), mkdtempSync(join(tmpdir(), 'hookmd-redis-')));
    await server.resume();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server process (again, after `stop`), and waits until it answers. */
  async resume(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--dir', this.dir, '--save', '', '--appendonly', 'yes', '--appendfsync', 'always'], { stdio: 'ignore' });
    this.#child = child;
    const deadline = Date.now() + 15_000;
    while (spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout.trim() !== 'PONG') {
      if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
      if (Date.now() > deadline) throw new Error('redis-server did not answer within 15 s');
      await sleep(50);
    }
  }

  /** Stops the server (SIGTERM: it flushes the append-only file), by its PID. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Stops the server and removes its files. */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The Redis of CI, or a server of our own; `close` stops only one we started. */
export async function testRedis(): Promise<{ url: string; close: () => Promise<void> }> {
  const given = process.env.HOOKMD_TEST_REDIS;
  if (given !== undefined) return { url: given, close: async () => undefined };
  const server = await RedisServer.start();
  return { url: server.url, close: () => server.close() };
}
