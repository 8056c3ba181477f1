// The Sink protocol: where finished systems go (runStream's graduates, SnapshotHook's frames). Small on
// purpose: write, drain, close, and two counters. Every sink in lib/io implements it, and so can users.
import { Batch, type System } from '../../data/index.js';
import { HookmdError, HookmdRangeError, HookmdTypeError } from '../../errors.js';
import { showText } from '../../describe-value.js';

/**
 * A destination for systems.
 *
 * - `write(systems)` accepts systems (callers `await` it). A memory sink stores them; a file sink
 *   buffers them and writes the buffer to storage once it holds `capacity` systems. Failures are
 *   typed: SINK_FULL (a memory sink past its capacity), SINK_CLOSED (after `close()`), and
 *   SINK_WRITE_FAILED with the I/O error as `cause`. Systems a failed write could not store stay
 *   buffered (a later `drain()` or `close()` retries them); nothing is dropped silently.
 * - `drain()` empties the sink's buffer and returns the systems that were in it: a file sink first
 *   writes them to storage (they are durable when the promise settles); HostMemorySink hands over
 *   everything it holds and forgets it.
 * - `close()` drains, then finalizes the storage; later writes throw SINK_CLOSED. Closing twice is
 *   harmless.
 * - `flush()` (optional; file sinks have it) writes what is buffered to storage and leaves the sink open:
 *   the store is complete as it stands. A snapshot hook that keeps its sink open across runs flushes it at
 *   the end of each run.
 * - `count`: systems accepted by `write` over the sink's life (buffered or stored).
 * - `capacity`: for HostMemorySink, the most systems held at once; for file sinks, the buffer size
 *   that triggers a write to storage.
 *
 * @example
 * class CountingSink implements Sink {
 *   count = 0;
 *   readonly capacity = Infinity;
 *   readonly isFull = false;
 *   write(systems: readonly System[]): void { this.count += systems.length; }
 *   clear(): void {}
 *   drain(): System[] { return []; }
 *   close(): void {}
 * }
 * await sink.write(batch.toSystems());
 * await sink.close();
 */
export interface Sink {
  /** Systems accepted by `write` so far. */
  readonly count: number;
  /** Memory sinks: the most systems held; file sinks: the buffer size that triggers a write. */
  readonly capacity: number;
  /** Whether a write of one more system would exceed `capacity` (file sinks: never; they write out). */
  readonly isFull: boolean;
  /**
   * Accepts systems, or the systems of `batch` flagged in `mask` (one entry per system; all when left
   * out). An all-false mask writes nothing; a mask of the wrong length is LENGTH_MISMATCH. Await it.
   */
  write(systems: readonly System[] | Batch, mask?: ArrayLike<boolean | number>): void | Promise<void>;
  /** Forgets what the sink holds without writing it (file sinks: what is buffered; the file stays). */
  clear(): void | Promise<void>;
  /** Empties the buffer (file sinks write it out first) and returns the systems that were in it. */
  drain(): System[] | Promise<System[]>;
  /** Drains and finalizes; later writes throw SINK_CLOSED. */
  close(): void | Promise<void>;
  /** Writes what is buffered to storage and stays open (sinks without a buffer need none). */
  flush?(): void | Promise<void>;
}

/** Options shared by the sinks. */
export interface SinkOptions {
  /** See `Sink.capacity`: an integer ≥ 1, or Infinity for HostMemorySink. */
  capacity?: number;
}

/** Checks a capacity option (an integer ≥ 1, or Infinity where `unbounded`). */
export function checkCapacity(owner: string, capacity: number | undefined, fallback: number, unbounded: boolean): number {
  const value = capacity ?? fallback;
  if (!((Number.isInteger(value) && value >= 1) || (unbounded && value === Infinity))) {
    throw new HookmdRangeError('INVALID_CAPACITY', `${owner}: capacity must be an integer ≥ 1${unbounded ? ' or Infinity' : ''}, got ${showText(value)}`, {
      field: 'capacity',
      value,
    });
  }
  return value;
}

/** The systems `write` was given: an array as is, or the systems of a batch flagged in `mask`. */
export function systemsToWrite(owner: string, input: unknown, mask: ArrayLike<boolean | number> | undefined): readonly System[] {
  if (!(input instanceof Batch)) {
    checkSystems(owner, input);
    return input;
  }
  if (mask === undefined) return input.toSystems();
  if (mask === null || typeof mask !== 'object' || typeof mask.length !== 'number' || mask.length !== input.numSystems) {
    const length = (mask as { length?: unknown } | null)?.length;
    throw new HookmdTypeError('LENGTH_MISMATCH', `${owner}.write: mask must have one entry per system (${input.numSystems}), got ${showText(length)}`, {
      field: 'mask',
      value: length,
      expected: input.numSystems,
    });
  }
  const indices: number[] = [];
  for (let s = 0; s < mask.length; s++) if (mask[s]) indices.push(s);
  return indices.length === 0 ? [] : input.toSystems(indices);
}

/** The most systems one `write` takes (16 Mi: far more than any batch, far fewer than a sparse array's length). */
const MAX_SYSTEMS_PER_WRITE = 2 ** 24;

/** Checks the argument of `write`: an array of System objects, without holes. */
export function checkSystems(owner: string, systems: unknown): asserts systems is readonly System[] {
  if (!Array.isArray(systems)) {
    throw new HookmdTypeError('INVALID_SYSTEMS', `${owner}.write: systems must be an array of System objects`, { field: 'systems', value: systems });
  }
  // A sparse array's length costs nothing to set and a pass over it: 2³² − 1 holes would run for minutes
  // and then exhaust the heap. No write needs more systems than this.
  if (systems.length > MAX_SYSTEMS_PER_WRITE) {
    throw new HookmdRangeError('INVALID_SYSTEMS', `${owner}.write: ${systems.length} systems in one write, more than the ${MAX_SYSTEMS_PER_WRITE} a write takes; write them in parts`, { field: 'systems', value: systems.length });
  }
  for (let index = 0; index < systems.length; index++) {
    const system: unknown = systems[index];
    if (system === null || typeof system !== 'object' || !('positions' in system)) {
      throw new HookmdTypeError('INVALID_SYSTEM', `${owner}.write: systems[${index}] is not a System (an object with positions)`, {
        field: 'systems',
        index,
        value: system,
      });
    }
  }
}

/** The SINK_CLOSED error of a write after close. */
export function sinkClosed(owner: string): HookmdError {
  const hint = 'a snapshot hook closes its sink when its run ends; give it ownsSink: false to keep the sink open for later runs';
  return new HookmdError('SINK_CLOSED', `${owner}.write: the sink is closed (${hint})`, { sink: owner });
}

/** Wraps an I/O or downstream failure as SINK_WRITE_FAILED (typed errors of that code pass through). */
export function sinkWriteFailed(owner: string, error: unknown, details: Record<string, unknown> = {}): HookmdError {
  if (error instanceof HookmdError && error.code === 'SINK_WRITE_FAILED') return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HookmdError('SINK_WRITE_FAILED', `${owner}: write failed: ${message}`, { sink: owner, ...details, cause: error }, { cause: error });
}
