// Checks on the files a command will read and write, made before any work starts: a typo in a path should
// cost an exit code 2 at once, not a failure after an hour of dynamics.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { isHookmdError } from '../errors.js';
import { StagedFile } from '../io/atomic-write.js';
import { ExtxyzSink, openSink, type Sink } from '../io/index.js';
import { sinkFormat } from '../io/sinks/open-sink.js';
import { configError } from './config-file.js';
import type { PathSegment } from './json-schema.js';
import type { SinkConfig, UnitsName } from './run-config.js';

/**
 * Throws INVALID_CONFIG unless `file` is an existing regular file. `label` says where it was given, and
 * `shown` how (default: the path itself).
 */
export function checkInputFile(file: string, label: string, shown: string = file): void {
  if (!existsSync(file)) throw configError([`${label}: ${shown} does not exist`]);
  if (!statSync(file).isFile()) throw configError([`${label}: ${shown} is not a file`]);
}

/** Throws INVALID_CONFIG unless the directory that will hold `file` exists. */
export function checkOutputPath(file: string, label: string): void {
  const directory = dirname(resolve(file));
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw configError([`${label}: cannot write ${file}: directory ${dirname(file)} does not exist`]);
  }
}

/** A sink for an output file, and the staged file to commit once the run has succeeded. */
export interface OutputSink {
  readonly sink: Sink;
  /** Set for extxyz outputs, which are written to a temporary until the run succeeds. */
  readonly staged: StagedFile | undefined;
}

/**
 * Opens the sink for an output file (by extension). An extxyz file is staged: the sink writes a temporary
 * sibling, and the old file stays until the command commits it, so a failing run never truncates it.
 * (A Zarr store is a new directory; ZarrSink refuses an existing one.)
 */
export function openOutputSink(path: string, options: { capacity?: number; units: UnitsName }, label: string): OutputSink {
  if (sinkFormat(path) !== 'extxyz') return { sink: opening(label, () => openSink(path, options)), staged: undefined };
  const staged = new StagedFile(path);
  return { sink: opening(label, () => new ExtxyzSink(staged.temporary, options)), staged };
}

/** Opens the sinks of a config (by file extension); problems point at `sinks[i]`. */
export function openSinks(sinks: readonly SinkConfig[], units: UnitsName, locate: (path: readonly PathSegment[]) => string): OutputSink[] {
  return sinks.map((sink, i) => {
    const label = `${locate(['sinks', i, 'path'])}: sinks[${i}].path`;
    checkOutputPath(sink.path, label);
    return openOutputSink(sink.path, { capacity: sink.capacity, units }, label);
  });
}

/**
 * Runs `open` (a sink or hook constructor for a flag's file); a typed error it throws comes back as
 * INVALID_CONFIG led by `label`: `--zarr: ZarrSink: out.zarr already exists …`.
 */
export function opening<T>(label: string, open: () => T): T {
  try {
    return open();
  } catch (error) {
    if (!isHookmdError(error)) throw error;
    throw configError([`${label}: ${error.message}`], { cause: error.code });
  }
}
