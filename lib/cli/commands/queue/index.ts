// `hookmd queue push|work|status|retry`: a work queue of input chunks on BullMQ over Redis
// (docs/scale-out.md). BullMQ loads only when a queue command runs.
import type { Command } from 'commander';

import { configError } from '../../config-file.js';
import { addRuntimeOptions, parse } from '../../options.js';
import { push, type PushOptions } from './push.js';
import { addQueueOptions, type QueueOptions } from './redis.js';
import { describeStatus, retry, status } from './status.js';
import { work, type WorkOptions } from './work.js';

function print(options: QueueOptions, line: string, json: unknown): void {
  if (options.json === true) process.stdout.write(`${JSON.stringify(json)}\n`);
  else if (options.quiet !== true) process.stdout.write(`${line}\n`);
}

/**
 * Adds `queue` and its subcommands to the program; the exit code goes to `done`. `argv` is the command
 * line being parsed: `queue push` splits it at `--`, which commander does not report.
 */
export function registerQueue(program: Command, done: (code: number) => void, argv: readonly string[]): void {
  const queue = program.command('queue').description('a work queue on Redis (BullMQ): push chunks of an input, run them on any number of workers');

  const pushCommand = queue
    .command('push')
    .description('enqueue the input in chunks, each to run the command given after --')
    .argument('<inputs...>', 'structure files, taken as one input in the order given; then -- and relax, md or run with its options')
    .requiredOption('--chunk <K>', 'systems per chunk', parse.count)
    .option('--attempts <n>', 'tries of a chunk that fails before it stays failed (queue retry requeues it)', parse.count, 3);
  addQueueOptions(pushCommand);
  pushCommand.action(async (operands: string[], options: PushOptions) => {
    // Commander hands over what follows `--` as operands too: it is the tail of the command line.
    const raw = argv;
    const separator = raw.indexOf('--');
    if (separator < 0) throw configError(['queue push: give the command for the chunks after --, e.g. -- relax --model lj:epsilon=1,sigma=1,cutoff=2.5 --units lj']);
    const jobArgs = raw.slice(separator + 1);
    const inputs = operands.slice(0, operands.length - jobArgs.length);
    if (inputs.length === 0) throw configError(['queue push: give the input files before --']);
    const summary = await push(inputs, jobArgs, options);
    const again = summary.existing === 0 ? '' : ` (${summary.existing} were already there)`;
    if (options.json !== true) print(options, `queue push: ${summary.chunks} chunks of up to ${options.chunk} systems (${summary.systems} systems) → queue ${summary.queue}${again}`, summary);
    done(0);
  });

  const workCommand = queue
    .command('work')
    .description('run chunks of the queue until stopped (SIGTERM or Ctrl-C requeues the chunks in flight)')
    .requiredOption('-o, --out <dir>', 'directory of chunk outputs, <chunk name>.extxyz each (created if missing)')
    .option('--concurrency <n>', 'chunks run at once in this process', parse.count, 1)
    .option('--exit-when-empty', 'exit once no chunk is waiting or running anywhere')
    .option('--lock-duration <ms>', 'milliseconds a chunk stays locked without renewal: how soon the chunk of a dead worker is redone', parse.count, 30_000)
    .option('--stalled-interval <ms>', 'milliseconds between checks for chunks whose worker died', parse.count, 30_000)
    .option('--progress-interval <seconds>', 'seconds between progress lines when stderr is not a terminal', parse.nonNegative, 5);
  addQueueOptions(workCommand);
  addRuntimeOptions(workCommand);
  workCommand.action(async (options: WorkOptions) => done(await work(options)));

  const statusCommand = queue.command('status').description('print how many chunks wait, run, completed and failed');
  addQueueOptions(statusCommand);
  statusCommand.action(async (options: QueueOptions) => {
    const counts = await status(options);
    print(options, describeStatus(counts), counts);
    done(0);
  });

  const retryCommand = queue.command('retry').description('requeue the failed chunks');
  addQueueOptions(retryCommand);
  retryCommand.action(async (options: QueueOptions) => {
    const requeued = await retry(options);
    print(options, `queue ${options.queue}: ${requeued} failed chunks requeued`, { queue: options.queue, requeued });
    done(0);
  });
}
