// HostMemorySink: keeps systems in a JS array, for tests, services and small runs.
import type { System } from '../../data/index.js';
import { HookmdError, HookmdTypeError } from '../../errors.js';
import { checkKeys } from '../../option-keys.js';
import type { Batch } from '../../data/index.js';
import { checkCapacity, sinkClosed, systemsToWrite, type Sink, type SinkOptions } from './sink.js';
import { showValue } from '../../describe-value.js';

/** Options of `new HostMemorySink`. */
export interface HostMemorySinkOptions extends SinkOptions {
  /**
   * `read()` and `drain()` of an empty sink throw SINK_EMPTY, as nvalchemi's HostMemory raises on an empty
   * read (default false: they return an empty array, docs/pipeline.md).
   */
  throwWhenEmpty?: boolean;
}

/**
 * Holds the systems written to it, in order, as the objects given (no copy). A write that would hold
 * more than `capacity` systems throws SINK_FULL and stores none of them; `drain()` hands over what is
 * held and frees the room. Everything is synchronous, so it also works with `runSync()`.
 *
 * @example
 * const sink = new HostMemorySink();
 * await fire.runStream(source, { sinks: [sink], maxAtoms: 4096 });
 * const relaxed = sink.read();
 */
export class HostMemorySink implements Sink {
  /** The most systems held at once (default Infinity). */
  readonly capacity: number;
  /** Whether an empty read() or drain() throws SINK_EMPTY. */
  readonly throwWhenEmpty: boolean;
  #held: System[] = [];
  #count = 0;
  #closed = false;

  constructor(options: HostMemorySinkOptions = {}) {
    const given = checkKeys('HostMemorySink', options, ['capacity', 'throwWhenEmpty']);
    this.capacity = checkCapacity('HostMemorySink', given.capacity as number | undefined, Infinity, true);
    const strict = given.throwWhenEmpty ?? false;
    if (typeof strict !== 'boolean') {
      throw new HookmdTypeError('INVALID_OPTIONS', `HostMemorySink: throwWhenEmpty must be a boolean, got ${showValue(strict)}`, { field: 'throwWhenEmpty', value: strict });
    }
    this.throwWhenEmpty = strict;
  }

  /** Systems held now (nvalchemi's `len(sink)`). */
  get length(): number {
    return this.#held.length;
  }

  /** Systems accepted over the sink's life (drained ones included). */
  get count(): number {
    return this.#count;
  }

  /** Whether it holds `capacity` systems. */
  get isFull(): boolean {
    return this.#held.length >= this.capacity;
  }

  /** Stores `systems` (or a batch's systems flagged in `mask`); throws SINK_FULL (storing none) when they do not fit. */
  write(input: readonly System[] | Batch, mask?: ArrayLike<boolean | number>): void {
    const systems = systemsToWrite('HostMemorySink', input, mask);
    if (this.#closed) throw sinkClosed('HostMemorySink');
    if (systems.length === 0) return;
    if (this.#held.length + systems.length > this.capacity) {
      throw new HookmdError(
        'SINK_FULL',
        `HostMemorySink.write: holding ${this.#held.length} of ${this.capacity} systems, ${systems.length} more do not fit; drain() it first`,
        { sink: 'HostMemorySink', held: this.#held.length, capacity: this.capacity, incoming: systems.length },
      );
    }
    this.#held.push(...systems);
    this.#count += systems.length;
  }

  /** The systems held now, in write order (a new array; the systems themselves are not copied). */
  read(): System[] {
    this.#checkNotEmpty('read');
    return this.#held.slice();
  }

  /** Forgets the systems held. */
  clear(): void {
    this.#held = [];
  }

  /** Returns the systems held and forgets them. */
  drain(): System[] {
    this.#checkNotEmpty('drain');
    const held = this.#held;
    this.#held = [];
    return held;
  }

  /** Refuses further writes; what is held stays readable. */
  close(): void {
    this.#closed = true;
  }

  #checkNotEmpty(op: string): void {
    if (this.throwWhenEmpty && this.#held.length === 0) {
      throw new HookmdError('SINK_EMPTY', `HostMemorySink.${op}: the sink holds no systems`, { sink: 'HostMemorySink' });
    }
  }
}
