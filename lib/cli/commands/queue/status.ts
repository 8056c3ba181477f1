// `hookmd queue status` (how many chunks wait, run, are done or failed) and `hookmd queue retry` (failed
// chunks back to the queue).
import { checkQueueOptions, checkRedis, connection, type QueueOptions } from './redis.js';
import type { QueueCounts } from './progress.js';

/** The counts of `queue status`, by state. */
export interface QueueStatus extends QueueCounts {
  queue: string;
}

async function openQueue(options: QueueOptions): Promise<import('bullmq').Queue> {
  checkQueueOptions(options);
  await checkRedis(options.redis);
  const { Queue } = await import('bullmq');
  return new Queue(options.queue, { connection: connection(options.redis) });
}

async function countsOf(queue: import('bullmq').Queue): Promise<QueueCounts> {
  return (await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')) as unknown as QueueCounts;
}

/** The chunk counts of a queue. */
export async function status(options: QueueOptions): Promise<QueueStatus> {
  const queue = await openQueue(options);
  try {
    return { queue: options.queue, ...(await countsOf(queue)) };
  } finally {
    await queue.close();
  }
}

/** One line: `queue relax-lj13: 12 waiting, 2 active, 86 completed, 0 failed`. */
export function describeStatus(counts: QueueStatus): string {
  const later = counts.delayed + counts.prioritized;
  const extra = later === 0 ? '' : `, ${counts.delayed} delayed (retry backoff), ${counts.prioritized} prioritized`;
  return `queue ${counts.queue}: ${counts.waiting} waiting, ${counts.active} active, ${counts.completed} completed, ${counts.failed} failed${extra}`;
}

/** Requeues every failed chunk; resolves to how many. */
export async function retry(options: QueueOptions): Promise<number> {
  const queue = await openQueue(options);
  try {
    const { failed } = await countsOf(queue);
    if (failed > 0) await queue.retryJobs({ state: 'failed', count: 1000 });
    return failed;
  } finally {
    await queue.close();
  }
}
