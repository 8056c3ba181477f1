// Exit codes: 0 OK, 1 runtime failure, 2 bad usage or bad input, 3 a flagged run under --strict,
// 128 + n after signal n (interrupt.ts).
// Usage and input problems are those a user fixes by changing the command, the config or the input file.
import { CommanderError } from 'commander';

import { HookmdRangeError, HookmdTypeError, isHookmdError } from '../errors.js';

/** Exit code of a successful run. */
export const EXIT_OK = 0;
/** Exit code of a failure while running (I/O, a failing hook, a native error). */
export const EXIT_FAILURE = 1;
/** Exit code of bad flags, a bad config, or bad input data. */
export const EXIT_USAGE = 2;
/** Exit code, under --strict, of a run that ended but is flagged (absurd temperature, energy drift, empty input). */
export const EXIT_FLAGGED = 3;

// Typed errors of class HookmdError whose cause is the input (a file, a config, the model parameters),
// not the run. Range and type errors are always input errors.
const INPUT_CODES: ReadonlySet<string> = new Set([
  // input files and data
  'EXTXYZ_PARSE', 'EXTXYZ_LIMIT', 'READ_FAILED', 'UNKNOWN_ELEMENT', 'MISSING_LATTICE', 'NO_REFERENCE', 'INVALID_REFERENCE',
  'POSCAR_PARSE', 'CIF_PARSE', 'CIF_PARTIAL_OCCUPANCY', 'CIF_UNSUPPORTED', 'CIF_OVERLAP', 'LAMMPS_DATA_PARSE', 'LAMMPS_DUMP_PARSE', 'TRAJ_PARSE', 'H5MD_PARSE', 'H5MD_SHAPE', 'UNKNOWN_FORMAT', 'UNSUPPORTED_FORMAT', 'UNKNOWN_SPECIES', 'SINGULAR_CELL', 'INVALID_PBC',
  // models
  'MISSING_PAIR', 'INVALID_PAIR', 'DUPLICATE_PAIR', 'INVALID_PARAMETER', 'UNSUPPORTED_MODEL', 'EAM_PARSE', 'INVALID_POTENTIAL', 'MISSING_SPECIES',
  // configs, hooks, sinks
  'INVALID_CONFIG', 'CONFIG_NOT_FOUND', 'VIEW_BAD_FILE', 'INVALID_OPTIONS', 'INVALID_CRITERION', 'UNKNOWN_HOOK', 'INVALID_HOOK_CONFIG',
  'UNKNOWN_OPTIMIZER', 'UNKNOWN_SCHEDULER', 'METRIC_NOT_FOUND', 'UNKNOWN_SINK_FORMAT', 'SINK_PATH_EXISTS',
  'INVALID_BACKEND', 'INVALID_UNITS', 'UNITS_MISMATCH', 'UNKNOWN_PARAMETER',
  // dynamics that cannot do what the config asks with this input (a thermostat given systems at rest, NPT
  // given a triclinic cell)
  'COLD_START', 'INVALID_CELL',
  // checkpoints to resume from
  'CHECKPOINT_NOT_FOUND', 'INVALID_CHECKPOINT', 'CHECKPOINT_MISMATCH',
  // scale-out: outputs to resume or merge, queue jobs
  'RESUME_MISMATCH', 'OUTPUT_LOCKED', 'TORN_FRAME', 'MISSING_SYSTEM_ID', 'DUPLICATE_SYSTEM', 'MISSING_SYSTEMS', 'INPUT_SIZE_MISMATCH', 'QUEUE_MISMATCH',
]);

/**
 * The exit code for an error that ended a command.
 *
 * @example
 * exitCodeFor(new HookmdTypeError('INVALID_CONFIG', 'run.yaml:3: stages: is required')); // 2
 */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  if (error instanceof HookmdRangeError || error instanceof HookmdTypeError) return EXIT_USAGE;
  if (isHookmdError(error) && INPUT_CODES.has(error.code)) return EXIT_USAGE;
  return EXIT_FAILURE;
}

/**
 * Writes what went wrong to stderr, one `hookmd: …` line per line of the message. Commander has
 * already printed its own usage errors.
 */
export function reportError(error: unknown): void {
  if (error instanceof CommanderError) return;
  const message = isHookmdError(error) || error instanceof Error ? error.message : String(error);
  const lines = message.split('\n').map((line) => `hookmd: ${line}`);
  // Unexpected failures keep their stack: they are bugs to report, not inputs to fix.
  if (!isHookmdError(error) && error instanceof Error && error.stack !== undefined) lines.push(error.stack);
  process.stderr.write(`${lines.join('\n')}\n`);
}
