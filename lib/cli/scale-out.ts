// --shard and --resume on relax, md and run (docs/scale-out.md): the flags, and what they change in a
// run's input and outputs. Without them a command reads and writes exactly as before.
import type { Command } from 'commander';

import type { System } from '../data/index.js';
import type { StreamSink } from '../dynamics/index.js';
import { ExtxyzSink, type Sink } from '../io/index.js';
import { sinkFormat } from '../io/sinks/open-sink.js';
import { configError } from './config-file.js';
import { countFrames } from './frame-count.js';
import { opening } from './paths.js';
import { keepFramesOf, resumeOutput } from './resume.js';
import type { UnitsName } from './run-config.js';
import { InputSelection } from './selection.js';
import { parseShard, type Shard } from './shard.js';
import { readH5md, readStructures, structureFormat } from '../io/index.js';

/** Where a queue chunk lies in the whole input: its input is systems `firstIndex`, `firstIndex + 1`, ... */
export interface ChunkPosition {
  readonly firstIndex: number;
  readonly inputSystems: number;
}

/** The scale-out flags, and the position of a queue chunk (set by `hookmd queue work`, not a flag). */
export interface ScaleOutOptions {
  shard?: Shard;
  resume?: boolean;
  chunk?: ChunkPosition;
}

/** Adds --shard and --resume. */
export function addScaleOutOptions(command: Command): Command {
  return command
    .option('--shard <i/N>', 'take only shard i of N (from 0): the input systems whose index k has k mod N = i; outputs carry each system\'s index in the whole input', parseShard)
    .option('--resume', 'skip the systems the output already holds (an earlier, interrupted attempt) and append the others to it, frame by frame');
}

/** Whether a run is part of a scale-out: its outputs then carry input indices and the input's size. */
export function scalingOut(options: ScaleOutOptions): boolean {
  return options.shard !== undefined || options.resume === true || options.chunk !== undefined;
}

/** Systems in the input file of a streamed run: frames of an extxyz file (counted), of a .traj, dump or H5MD file (read), or the one structure of the others. */
export async function inputSystemCount(input: string): Promise<number> {
  const format = structureFormat(input);
  if (format === 'extxyz') return (await countFrames(input)) ?? 0;
  if (format === 'h5md') return (await readH5md(input)).length;
  return format === 'traj' || format === 'lammps-dump' ? readStructures(input).length : 1;
}

/** Refuses outputs that cannot be appended to frame by frame. */
export function checkResumable(options: ScaleOutOptions, outputs: ReadonlyArray<readonly [string, string | undefined]>): void {
  if (options.resume !== true) return;
  for (const [label, path] of outputs) {
    if (path !== undefined && sinkFormat(path) !== 'extxyz') {
      throw configError([`${label}: --resume appends to extxyz files only; ${path} is a ${sinkFormat(path)} store (write it in a later step from the merged extxyz)`]);
    }
  }
}

/**
 * The input selection of a streamed run (relax, run) with --shard or --resume, undefined without them.
 * With --resume the extxyz outputs are read first: the systems that all of them hold are done, and frames
 * of other systems (a sink flushed before the kill, another not) are dropped so that each output holds
 * each system once.
 */
export async function selectStreamInput(input: string, options: ScaleOutOptions, outputs: ReadonlyArray<readonly [string, string]>, note: (message: string) => void): Promise<InputSelection | undefined> {
  if (!scalingOut(options)) return undefined;
  if (options.chunk !== undefined) return new InputSelection(options.chunk);
  const inputSystems = await inputSystemCount(input);
  const done = options.resume === true ? await resumeOutputs(outputs, inputSystems, options.shard, note) : new Set<number>();
  const selection = new InputSelection({ shard: options.shard, done, inputSystems });
  if (done.size > 0) note(`--resume: ${done.size} systems already done; ${selection.size(inputSystems)} to go`);
  return selection;
}

/** The systems that every output holds, each output cut back to them. */
export async function resumeOutputs(outputs: ReadonlyArray<readonly [string, string]>, inputSystems: number, shard: Shard | undefined, note: (message: string) => void): Promise<Set<number>> {
  const held = outputs.map(([label, path]) => resumeOutput(path, label, { inputSystems, shard }, note));
  if (held.length === 0) return new Set();
  const done = new Set([...held[0]].filter((id) => held.every((set) => set.has(id))));
  for (const [k, [label, path]] of outputs.entries()) {
    if (held[k].size > done.size) await keepFramesOf(path, label, done, note);
  }
  return done;
}

/**
 * A sink that appends to the extxyz file at `path`, one write (and fsync) per batch of systems leaving the
 * run, so a kill loses at most the systems in flight and leaves at most one torn frame, which the next
 * --resume cuts off.
 */
export function openAppendSink(path: string, units: UnitsName, label: string): Sink {
  return opening(label, () => new ExtxyzSink(path, { units, append: true, capacity: 1 }));
}

/**
 * Under --resume, an interrupted run (SIGTERM from a preempting scheduler) must not record the systems it
 * was still working on as done: those leave the batch unfinished (not converged, short of maxSteps) once
 * `signal` has fired, and are dropped here, to be run again by the next attempt.
 */
export function withoutInterrupted(sink: StreamSink, signal: AbortSignal, maxSteps: number): StreamSink {
  const finished = (system: System): boolean => !signal.aborted || system.info?.converged === true || (system.info?.steps as number) >= maxSteps;
  return {
    write: (systems: readonly System[]) => sink.write(systems.filter(finished)),
    close: () => sink.close?.(),
    ...(sink.needs === undefined ? {} : { needs: sink.needs }),
  };
}
