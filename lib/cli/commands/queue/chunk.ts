// A queue job is one chunk of the input: K consecutive systems, carried in the job as extxyz text (so a
// worker needs no shared filesystem for its input), with the command that runs them and their place in the
// whole input. Its name comes from that place alone, so whichever worker runs it, and however often, it
// writes the same file: a chunk redone after a lost worker replaces, never duplicates.
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

import { HookmdError } from '../../../errors.js';
import { indexExtxyz } from '../../../io/extxyz/frame-index.js';
import { formatExtxyz, readStructures, structureFormat } from '../../../io/index.js';

/** The commands a chunk can run. */
export type ChunkCommand = 'relax' | 'md' | 'run';

/** The data of one queue job. */
export interface ChunkJob {
  /** Layout of this object; a worker refuses others. */
  readonly format: 1;
  /** Identifies the push (command, options and input): a second push of the same job adds nothing. */
  readonly digest: string;
  readonly command: ChunkCommand;
  /** The command's options (and, for run, its config file), as given after `--`. */
  readonly args: readonly string[];
  /** Index in the whole input of the chunk's first system. */
  readonly firstIndex: number;
  /** Systems in the chunk. */
  readonly count: number;
  /** Systems in the whole input. */
  readonly inputSystems: number;
  /** The chunk's name: its output is `<name>.extxyz`. */
  readonly name: string;
  /** The chunk's systems as extxyz frames. */
  readonly frames: string;
}

/**
 * `chunk-000100-000199`: the input indices of the chunk's first and last systems, zero-padded so that
 * names sort in input order.
 */
export function chunkName(firstIndex: number, count: number, inputSystems: number): string {
  const width = Math.max(6, String(Math.max(0, inputSystems - 1)).length);
  const pad = (n: number): string => String(n).padStart(width, '0');
  return `chunk-${pad(firstIndex)}-${pad(firstIndex + count - 1)}`;
}

/** The frames of every input, in order: extxyz frames byte for byte, other formats written as extxyz. */
function* inputFrames(inputs: readonly string[]): Generator<string, void, undefined> {
  for (const input of inputs) {
    if (structureFormat(input) !== 'extxyz') {
      for (const system of readStructures(input)) yield formatExtxyz(system);
      continue;
    }
    const { frames, torn } = indexExtxyz(input, [], { unterminatedLastLine: true });
    if (torn > 0) throw new HookmdError('EXTXYZ_PARSE', `queue push: ${input} ends in an incomplete frame (${torn} bytes)`, { file: input });
    const fd = openSync(input, 'r');
    try {
      for (const frame of frames) {
        const bytes = Buffer.allocUnsafe(frame.end - frame.start);
        readSync(fd, bytes, 0, bytes.length, frame.start);
        const text = bytes.toString('utf8');
        yield text.endsWith('\n') ? text : `${text}\n`;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Splits `inputs` (one input, in the order given) into jobs of `chunk` systems for `command` with `args`.
 *
 * @example
 * const jobs = chunkJobs(['a.xyz', 'b.xyz'], 100, 'relax', ['--model', 'lj:epsilon=1,sigma=1,cutoff=2.5', '--units', 'lj']);
 */
export function chunkJobs(inputs: readonly string[], chunk: number, command: ChunkCommand, args: readonly string[]): ChunkJob[] {
  const frames = [...inputFrames(inputs)];
  const hash = createHash('sha256').update(JSON.stringify({ command, args, chunk }));
  for (const frame of frames) hash.update(frame);
  const digest = hash.digest('hex');
  const jobs: ChunkJob[] = [];
  for (let first = 0; first < frames.length; first += chunk) {
    const part = frames.slice(first, first + chunk);
    const name = chunkName(first, part.length, frames.length);
    jobs.push({ format: 1, digest, command, args, firstIndex: first, count: part.length, inputSystems: frames.length, name, frames: part.join('') });
  }
  return jobs;
}
