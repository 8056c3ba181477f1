// The Redis server behind `hookmd queue`: the --redis and --queue flags, a first connection that fails
// fast with a clear error (BullMQ itself retries forever, which is right for a worker riding out a Redis
// restart, not for a mistyped URL), and the connection options BullMQ is given.
import type { Command } from 'commander';
import type { ConnectionOptions } from 'bullmq';

import { HookmdError } from '../../../errors.js';
import { configError } from '../../config-file.js';
import { showText, showValue } from '../../../describe-value.js';

/** Flags every queue command takes. */
export interface QueueOptions {
  redis: string;
  queue: string;
  json?: boolean;
  quiet?: boolean;
}

/** The default --redis: a server on this machine. */
export const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

/** Adds --redis, --queue, --json and --quiet. */
export function addQueueOptions(command: Command): Command {
  return command
    .option('--redis <url>', 'Redis server (redis://[user:password@]host:port[/db], rediss:// for TLS)', DEFAULT_REDIS)
    .requiredOption('--queue <name>', 'queue name: one per job (its input and command)')
    .option('--json', 'machine-readable output: JSON lines on stdout')
    .option('-q, --quiet', 'print nothing but errors');
}

/** Checks the flags: a redis:// or rediss:// URL, and a queue name BullMQ can key on. */
export function checkQueueOptions(options: QueueOptions): void {
  let url: URL;
  try {
    url = new URL(options.redis);
  } catch {
    throw configError([`--redis: not a URL: ${options.redis} (e.g. redis://127.0.0.1:6379)`]);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw configError([`--redis: expected redis:// or rediss://, got ${showText(url.protocol)}//`]);
  if (!/^[A-Za-z0-9._-]+$/.test(options.queue)) throw configError([`--queue: ${showValue(options.queue)} may hold only letters, digits, '.', '_' and '-'`]);
}

/** BullMQ's connection to `url`; commands wait through reconnections instead of failing (a Redis restart). */
export function connection(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null };
}

/** Resolves once `url` answers PING; REDIS_UNAVAILABLE, naming it, if it does not within `timeoutMs`. */
export async function checkRedis(url: string, timeoutMs = 5000): Promise<void> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  // ioredis also reports the failure as an 'error' event; connect()'s rejection is what this function reports.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const shown = url.replace(/\/\/[^@/]*@/, '//…@');
    throw new HookmdError('REDIS_UNAVAILABLE', `queue: cannot reach Redis at ${shown}: ${(error as Error).message}`, { field: '--redis' }, { cause: error });
  } finally {
    client.disconnect();
  }
}
