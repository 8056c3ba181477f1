// Options and result of runStream, checked once at the top.
import { HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { checkKeys, type OptionAliases } from '../../option-keys.js';
import type { StreamSink } from './output.js';
import { showText } from '../../describe-value.js';

/** Options of `engine.runStream(source, options)` (docs/pipeline.md). */
export interface StreamOptions {
  /** Every system that leaves the batch is written to each sink. */
  sinks?: readonly StreamSink[];
  /** Atom budget: the batch is kept full up to this many atoms. */
  maxAtoms: number;
  /** The most systems the batch holds at once (default: no limit but `maxAtoms`). */
  maxSystems?: number;
  /** Steps between graduations and refills (default 10). */
  refillEvery?: number;
  /** A system leaves, unconverged, after this many steps (default 10,000). */
  maxSteps?: number;
  /** Units of the source's systems (default 'metal'). */
  units?: 'metal' | 'lj';
  /** Hand systems to the sinks in input order (held back until every earlier one has left). */
  restoreOrder?: boolean;
  /** Aborting ends the stream after the current step; systems in the batch leave as unconverged. */
  signal?: AbortSignal;
}

/** What `runStream` returns. */
export interface StreamResult {
  /** Systems written to the sinks. */
  processed: number;
  converged: number;
  unconverged: number;
  /** Engine steps taken. */
  steps: number;
}

export interface CheckedStreamOptions {
  sinks: readonly StreamSink[];
  maxAtoms: number;
  maxSystems: number;
  refillEvery: number;
  maxSteps: number;
  units: 'metal' | 'lj';
  restoreOrder: boolean;
  signal: AbortSignal | undefined;
}

function positiveInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new HookmdRangeError('INVALID_STREAM_OPTION', `runStream: ${name} must be an integer ≥ 1, got ${showText(value)}`, { field: name, value });
  }
  return value;
}

export function checkStreamOptions(options: StreamOptions, owner: string, aliases: OptionAliases): CheckedStreamOptions {
  if (options === null || typeof options !== 'object') {
    throw new HookmdTypeError('INVALID_STREAM_OPTION', 'runStream: options must be an object with maxAtoms', { field: 'options' });
  }
  checkKeys(owner, options, ['sinks', 'maxAtoms', 'maxSystems', 'refillEvery', 'maxSteps', 'units', 'restoreOrder', 'signal'], '', aliases);
  const sinks = options.sinks ?? [];
  sinks.forEach((sink, i) => {
    if (sink === null || typeof sink !== 'object' || typeof sink.write !== 'function') {
      throw new HookmdTypeError('INVALID_SINK', `runStream: sinks[${i}] must have a write(systems) method`, { field: `sinks[${i}]` });
    }
  });
  return {
    sinks,
    maxAtoms: positiveInteger('maxAtoms', options.maxAtoms),
    maxSystems: options.maxSystems === undefined ? Infinity : positiveInteger('maxSystems', options.maxSystems),
    refillEvery: positiveInteger('refillEvery', options.refillEvery ?? 10),
    maxSteps: positiveInteger('maxSteps', options.maxSteps ?? 10_000),
    units: options.units ?? 'metal',
    restoreOrder: options.restoreOrder === true,
    signal: options.signal,
  };
}
