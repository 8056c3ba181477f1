// `hookmd queue push <inputs…> -- <relax|md|run …>`: splits the input into chunks and enqueues them. The
// options are checked first, by the command's own parser. Pushing the same job again adds nothing (chunk
// names are BullMQ job ids); a queue holding another job's chunks is refused.
import type { JobsOptions } from 'bullmq';

import { HookmdError } from '../../../errors.js';
import { configError } from '../../config-file.js';
import { checkInputFile } from '../../paths.js';
import { chunkJobs, type ChunkJob } from './chunk.js';
import { parseJob } from './job-command.js';
import { QueueReporter } from './progress.js';
import { checkQueueOptions, checkRedis, connection, type QueueOptions } from './redis.js';

/** Flags of `hookmd queue push`. */
export interface PushOptions extends QueueOptions {
  chunk: number;
  attempts: number;
}

/** What `queue push` did. */
export interface PushSummary {
  queue: string;
  chunks: number;
  /** Chunks that were already in the queue (a repeated push). */
  existing: number;
  systems: number;
}

// Jobs go to Redis this many at a time.
const BULK = 100;

/**
 * Enqueues `inputs` (taken as one input, in order) in chunks of `options.chunk` systems, each to run
 * `jobArgs` (`['relax', '--model', …]`); resolves to the summary.
 */
export async function push(inputs: readonly string[], jobArgs: readonly string[], options: PushOptions): Promise<PushSummary> {
  checkQueueOptions(options);
  inputs.forEach((input, k) => checkInputFile(input, `queue push: <inputs>[${k}]`));
  const parsed = parseJob(jobArgs);
  const jobs = chunkJobs(inputs, options.chunk, parsed.command, jobArgs.slice(1));
  if (jobs.length === 0) throw configError([`queue push: the inputs hold no structures: ${inputs.join(', ')}`]);
  await checkRedis(options.redis);
  const { Queue } = await import('bullmq');
  const queue = new Queue<ChunkJob>(options.queue, { connection: connection(options.redis) });
  const reporter = new QueueReporter(`queue push ${options.queue}`, options);
  try {
    const [held] = await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'], 0, 0);
    if (held !== undefined && held.data?.digest !== jobs[0].digest) {
      throw new HookmdError('QUEUE_MISMATCH', `queue push: queue ${options.queue} holds chunks of another job (other inputs, command or options); push to a new --queue name`, { field: '--queue', value: options.queue });
    }
    const existing = held === undefined ? 0 : (await Promise.all(jobs.map((job) => queue.getJob(job.name)))).filter((job) => job !== undefined).length;
    const opts: JobsOptions = { attempts: options.attempts, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: false, removeOnFail: false };
    for (let k = 0; k < jobs.length; k += BULK) {
      await queue.addBulk(jobs.slice(k, k + BULK).map((job) => ({ name: job.command, data: job, opts: { ...opts, jobId: job.name } })));
      reporter.update(Math.min(k + BULK, jobs.length), jobs.length, jobs.slice(0, k + BULK).reduce((n, job) => n + job.count, 0), 0);
    }
    const summary = { queue: options.queue, chunks: jobs.length, existing, systems: jobs[jobs.length - 1].inputSystems };
    reporter.event('pushed', { ...summary });
    return summary;
  } finally {
    reporter.stop();
    await queue.close();
  }
}
