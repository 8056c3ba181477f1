// `hookmd queue work`: a BullMQ worker that runs chunks until stopped (or, with --exit-when-empty, until the
// queue has nothing left to run). Each chunk runs in this process on the backend this worker picked (cuda
// on a GPU machine, as any run), and its output is renamed into --out DIR only once complete, under the
// chunk's name. A worker that dies mid-chunk leaves no output and a lock that expires: BullMQ's stalled-job
// check hands the chunk to another worker, whose output takes the same name.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import type { Job } from 'bullmq';

import { HookmdError } from '../../../errors.js';
import { indexExtxyz } from '../../../io/extxyz/frame-index.js';
import { configError } from '../../config-file.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, exitCodeFor } from '../../exit-code.js';
import { Interrupt, type Handled } from '../../interrupt.js';
import { applyRuntime } from '../../options.js';
import { backendInfo, type BackendRequest } from '../../../native/index.js';
import type { ChunkJob } from './chunk.js';
import { runChunk } from './job-command.js';
import { pendingChunks, QueueReporter, totalChunks, type QueueCounts } from './progress.js';
import { checkQueueOptions, checkRedis, connection, type QueueOptions } from './redis.js';

/** Flags of `hookmd queue work`. */
export interface WorkOptions extends QueueOptions {
  out: string;
  concurrency: number;
  exitWhenEmpty?: boolean;
  /** Milliseconds a chunk's lock lasts without renewal: how soon a dead worker's chunk is redone. */
  lockDuration: number;
  /** Milliseconds between checks for chunks whose lock expired. */
  stalledInterval: number;
  backend?: BackendRequest;
  threads?: number;
  progressInterval: number;
}

/** What a completed chunk job returns (kept by BullMQ with the job). */
export interface ChunkResult {
  file: string;
  systems: number;
  seconds: number;
}

const SIGNAL_NUMBERS: Readonly<Record<Handled, number>> = { SIGINT: 2, SIGTERM: 15 };

// The output must hold each of the chunk's systems once, labelled with its input index.
function checkChunkOutput(path: string, job: ChunkJob): void {
  const { frames, torn } = indexExtxyz(path, ['systemId']);
  const ids = frames.map((frame) => frame.info.systemId as number).sort((a, b) => a - b);
  const expected = Array.from({ length: job.count }, (_, k) => job.firstIndex + k);
  if (torn > 0 || ids.length !== expected.length || ids.some((id, k) => id !== expected[k])) {
    throw new HookmdError('CHUNK_INCOMPLETE', `queue work: ${job.name}: the output holds ${ids.length} of its ${job.count} systems`, { chunk: job.name });
  }
}

/** Runs `hookmd queue work`; resolves to the exit code (1 when a chunk failed here, 128 + n after signal n). */
export async function work(options: WorkOptions): Promise<number> {
  checkQueueOptions(options);
  if (existsSync(options.out) && !statSync(options.out).isDirectory()) throw configError([`--out: ${options.out} is not a directory`]);
  mkdirSync(options.out, { recursive: true });
  await checkRedis(options.redis);
  applyRuntime(options);
  const { Queue, UnrecoverableError, WaitingError, Worker } = await import('bullmq');
  const reporter = new QueueReporter(`queue work ${options.queue}`, options);
  const active = new Map<string, Interrupt>();
  let [systems, completed, failed] = [0, 0, 0];
  let stopping: Handled | undefined;

  const processor = async (job: Job<ChunkJob, ChunkResult>, token?: string): Promise<ChunkResult> => {
    const data = job.data;
    if (data?.format !== 1) throw new UnrecoverableError(`job ${job.id} is not a hookmd chunk (pushed by another program or version)`);
    const interrupt = new Interrupt({ listen: false });
    const key = job.id ?? data.name;
    active.set(key, interrupt);
    reporter.event('started', { chunk: data.name, systems: data.count, attempt: job.attemptsMade + 1 });
    const started = performance.now();
    const scratch = mkdtempSync(join(tmpdir(), 'hookmd-chunk-'));
    // Written next to the final file (one filesystem, so the rename is atomic), hidden from `*.extxyz`.
    const partial = join(options.out, `.${data.name}.${process.pid}.${randomBytes(4).toString('hex')}.extxyz`);
    try {
      const input = join(scratch, `${data.name}.extxyz`);
      writeFileSync(input, data.frames);
      let code: number;
      try {
        code = await runChunk(data, input, partial, interrupt);
      } catch (error) {
        // Bad input or options fail the same way on every worker: no retry.
        if (exitCodeFor(error) === EXIT_USAGE) throw new UnrecoverableError(`${data.name}: ${(error as Error).message}`);
        throw error;
      }
      if (interrupt.received !== undefined) {
        // Stopped by this worker's shutdown: back to the queue at once, without spending an attempt.
        await job.moveToWait(token);
        reporter.event('requeued', { chunk: data.name, signal: interrupt.received });
        throw new WaitingError();
      }
      if (code !== EXIT_OK) throw new HookmdError('CHUNK_FAILED', `queue work: ${data.name}: ${data.command} exited with code ${code}`, { chunk: data.name });
      checkChunkOutput(partial, data);
      const file = join(options.out, `${data.name}.extxyz`);
      renameSync(partial, file);
      return { file, systems: data.count, seconds: (performance.now() - started) / 1000 };
    } finally {
      active.delete(key);
      rmSync(scratch, { recursive: true, force: true });
      rmSync(partial, { force: true });
    }
  };

  const queue = new Queue<ChunkJob, ChunkResult>(options.queue, { connection: connection(options.redis) });
  const worker = new Worker<ChunkJob, ChunkResult>(options.queue, processor, {
    connection: connection(options.redis),
    concurrency: options.concurrency,
    lockDuration: options.lockDuration,
    stalledInterval: options.stalledInterval,
    // A chunk whose worker died twice (a node lost, then another) still gets a third try before it fails.
    maxStalledCount: 2,
    autorun: false,
  });
  const counts = async (): Promise<QueueCounts> => (await queue.getJobCounts('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized')) as unknown as QueueCounts;
  const show = async (): Promise<void> => {
    const now = await counts();
    reporter.update(now.completed, totalChunks(now), systems, now.failed);
  };
  worker.on('completed', (job, result) => {
    completed++;
    systems += result.systems;
    reporter.event('completed', { chunk: job.data.name, systems: result.systems, seconds: result.seconds, file: result.file });
    show().catch(() => undefined);
  });
  worker.on('failed', (job, error) => {
    failed++;
    reporter.event('failed', { chunk: job?.data.name, error: error.message, attempts: job?.attemptsMade });
    reporter.note(`queue work: ${job?.data.name ?? 'a chunk'} failed (attempt ${job?.attemptsMade ?? '?'}): ${error.message}`);
  });
  // Connection errors while Redis restarts: reported once per outage; BullMQ reconnects by itself.
  let lastError = '';
  worker.on('error', (error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    reporter.note(`queue work: ${error.message}`);
  });
  worker.on('ready', () => {
    lastError = '';
  });

  const stop = (name: Handled): void => {
    if (stopping !== undefined) {
      process.stderr.write(`\nhookmd: ${name} again: exiting now; chunks in flight go back to the queue when their locks expire\n`);
      process.exit(128 + SIGNAL_NUMBERS[name]);
    }
    stopping = name;
    reporter.note(`\nqueue work: ${name}: stopping; the ${active.size} chunks in flight go back to the queue (${name} again to quit at once)`);
    for (const interrupt of active.values()) interrupt.raise(name);
    worker.close().catch(() => undefined);
  };
  const handlers = (Object.keys(SIGNAL_NUMBERS) as Handled[]).map((name) => [name, () => stop(name)] as const);
  for (const [name, handler] of handlers) process.on(name, handler);

  // --exit-when-empty: done when nothing is waiting, delayed or active anywhere (a dead worker's chunk stays
  // active until its lock expires and this worker's stalled check puts it back).
  const watch = async (): Promise<void> => {
    while (options.exitWhenEmpty === true && stopping === undefined && !worker.closing) {
      await sleep(Math.min(1000, options.stalledInterval / 2));
      if (active.size === 0 && pendingChunks(await counts()) === 0) {
        await worker.close();
        return;
      }
    }
  };
  try {
    // The backend every chunk of this worker runs on: cuda where `auto` finds a GPU, as for any run.
    const { backend, device, fallbackReason } = backendInfo();
    reporter.event('ready', { queue: options.queue, pid: process.pid, concurrency: options.concurrency, backend, device, fallbackReason: fallbackReason ?? null });
    reporter.note(`queue work ${options.queue}: ${backend} backend (${device})${fallbackReason === undefined ? '' : `; ${fallbackReason}`}`);
    await show();
    await Promise.all([worker.run(), watch()]);
  } finally {
    for (const [name, handler] of handlers) process.off(name, handler);
    await worker.close();
    await queue.close();
    reporter.stop();
  }
  reporter.event('exit', { completed, failed, systems, signal: stopping ?? null });
  if (stopping !== undefined) return 128 + SIGNAL_NUMBERS[stopping];
  return failed > 0 ? EXIT_FAILURE : EXIT_OK;
}
