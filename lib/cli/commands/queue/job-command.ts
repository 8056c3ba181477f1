// The command a queue chunk runs: `relax`, `md` or `run` with the options given to `queue push` after `--`.
// They are parsed by the commands' own definitions, at push (a typo fails there, not in every worker) and
// again in the worker (which so gets the same defaults), and the chunk runs in the worker's process.
import { Command, CommanderError } from 'commander';

import { CONFIG_SCHEMA } from '../../config-schema.js';
import { configError, loadConfigFile } from '../../config-file.js';
import type { Interrupt } from '../../interrupt.js';
import { md, registerMd, type MdOptions } from '../md.js';
import { registerRelax, relax, type RelaxOptions } from '../relax.js';
import type { RunConfig } from '../../run-config.js';
import { registerRun, run, type RunOptions } from '../run.js';
import type { ChunkCommand, ChunkJob } from './chunk.js';

const REGISTER: Readonly<Record<ChunkCommand, (program: Command, done: (code: number) => void) => void>> = { relax: registerRelax, md: registerMd, run: registerRun };

// Flags a chunk may not carry: the worker names the output, shards the input, and picks the hardware.
const WORKER_FLAGS: ReadonlyArray<readonly [string, string]> = [
  ['-o', 'the worker writes each chunk to --out DIR of queue work'], ['--out', 'the worker writes each chunk to --out DIR of queue work'],
  ['--zarr', 'a chunk writes one extxyz file; convert the merged file'], ['--traj', 'a chunk writes its final frames only'],
  ['--log', 'a chunk writes its final frames only'], ['--view', 'workers serve no pages'],
  ['--shard', 'the queue splits the input into chunks'], ['--resume', 'the queue redoes whole chunks'],
  ['--backend', 'give it to queue work: each worker picks its hardware'], ['--threads', 'give it to queue work: each worker picks its hardware'],
  ['--json', 'give it to queue work'], ['-q', 'give it to queue work'], ['--quiet', 'give it to queue work'], ['--progress-interval', 'give it to queue work'],
];

/** Parsed options of a chunk's command; for run, also its config file. */
export interface ParsedJob {
  readonly command: ChunkCommand;
  readonly options: RelaxOptions | MdOptions | RunOptions;
  readonly config?: string;
}

/**
 * Parses `args` (what follows `--`: the command name, then its options) as that command does;
 * INVALID_CONFIG for an unknown command, a flag the worker owns, or what the command itself refuses.
 */
export function parseJob(args: readonly string[]): ParsedJob {
  const [command, ...rest] = args;
  if (command !== 'relax' && command !== 'md' && command !== 'run') {
    throw configError([`queue push: after --, give the command chunks run: relax, md or run, then its options (got ${command === undefined ? 'nothing' : JSON.stringify(command)})`]);
  }
  for (const arg of rest) {
    const flag = WORKER_FLAGS.find(([name]) => arg === name || arg.startsWith(`${name}=`));
    if (flag !== undefined) throw configError([`queue push: ${command} ${flag[0]}: not for a chunk (${flag[1]})`]);
  }
  let captured: unknown[] | undefined;
  let message = '';
  const program = new Command('hookmd').exitOverride().configureOutput({ writeErr: (text) => { message += text; }, writeOut: () => undefined });
  REGISTER[command](program, () => undefined);
  const sub = program.commands.find((c) => c.name() === command) as Command;
  sub.action((...values: unknown[]) => {
    captured = values;
  });
  // relax and md take their input from the chunk; a placeholder stands for it here.
  const positional = command === 'run' ? [] : ['chunk.extxyz'];
  try {
    program.parse([command, ...positional, ...rest], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    throw configError([`queue push: ${command} options: ${message.trim().replace(/^error: /, '') || error.message}`]);
  }
  const values = captured as unknown[];
  if (command === 'run') {
    const config = values[0] as string;
    checkRunConfig(config);
    return { command, options: values[1] as RunOptions, config };
  }
  return { command, options: values[1] as RelaxOptions | MdOptions };
}

// A chunk writes one output: a run config's sinks are replaced by it, and hooks may not write files of
// their own, which every chunk would overwrite.
function checkRunConfig(file: string): void {
  const { value, locate } = loadConfigFile<RunConfig>(file, CONFIG_SCHEMA);
  const writers = (value.hooks ?? []).flatMap((entry, i) => (entry.enabled !== false && entry.path !== undefined ? [`${locate(['hooks', i, 'path'])}: hooks[${i}].path: a queue chunk writes its output only (each chunk would overwrite this file)`] : []));
  if (writers.length > 0) throw configError(writers);
}

/**
 * Runs `job` on its input file `input` (the chunk's frames), writing `out`; resolves to the command's
 * exit code. The command runs quietly, stopped by `interrupt`.
 */
export async function runChunk(job: ChunkJob, input: string, out: string, interrupt: Interrupt): Promise<number> {
  const parsed = parseJob([job.command, ...job.args]);
  const chunk = { firstIndex: job.firstIndex, inputSystems: job.inputSystems };
  const common = { quiet: true, json: false, chunk };
  if (parsed.command === 'relax') return relax(input, { ...(parsed.options as RelaxOptions), ...common, out }, interrupt);
  if (parsed.command === 'md') return md(input, { ...(parsed.options as MdOptions), ...common, out }, interrupt);
  return run(parsed.config as string, { ...(parsed.options as RunOptions), ...common }, interrupt, { input, sinks: [{ path: out }] });
}
