// Checks on the files a command will read and write, made before any work starts: a typo in a path should
// cost an exit code 2 at once, not a failure after an hour of dynamics.
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { isHookmdError } from '../errors.js';
import { openSink, type Sink } from '../io/index.js';
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

/** Opens the sinks of a config (by file extension); problems point at `sinks[i]`. */
export function openSinks(sinks: readonly SinkConfig[], units: UnitsName, locate: (path: readonly PathSegment[]) => string): Sink[] {
  return sinks.map((sink, i) => {
    const label = `${locate(['sinks', i, 'path'])}: sinks[${i}].path`;
    checkOutputPath(sink.path, label);
    return opening(label, () => openSink(sink.path, { capacity: sink.capacity, units }));
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
