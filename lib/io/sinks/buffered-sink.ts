// The buffering, ordering and failure rules that every file sink shares. Subclasses only prepare one
// system (validating it at write time, so bad input fails where it was written) and persist a batch.
import type { Batch, System } from '../../data/index.js';
import { checkCapacity, sinkClosed, sinkWriteFailed, systemsToWrite, type Sink, type SinkOptions } from './sink.js';

interface Buffered<E> {
  readonly system: System;
  readonly entry: E;
}

/**
 * A sink that buffers prepared entries and persists them `capacity` at a time. Storage operations
 * run one after another, in call order, even when callers do not await. A failed persist leaves its
 * entries at the head of the buffer, so the next drain or close retries them.
 */
export abstract class BufferedSink<E> implements Sink {
  /** Systems buffered before they are written to storage. */
  readonly capacity: number;
  /** The sink's name in errors. */
  protected readonly owner: string;
  #buffer: Buffered<E>[] = [];
  #count = 0;
  #closed = false;
  #queue: Promise<unknown> = Promise.resolve();

  protected constructor(owner: string, options: SinkOptions, fallbackCapacity: number) {
    this.owner = owner;
    this.capacity = checkCapacity(owner, options?.capacity, fallbackCapacity, false);
  }

  /** Turns one system into what `persist` writes; throws the typed validation error for bad input. */
  protected abstract prepare(system: System, index: number): E;
  /** Writes `entries` to storage, all or (as far as the reader can tell) none. */
  protected abstract persist(entries: readonly E[]): Promise<void>;
  /** Completes the storage after the last persist (e.g. creates an empty file). */
  protected abstract finalize(): Promise<void>;
  /** Extra facts for SINK_WRITE_FAILED (the path). */
  protected abstract describe(): Record<string, unknown>;

  /** Systems accepted by `write` so far (stored or still buffered). */
  get count(): number {
    return this.#count;
  }

  /** Systems accepted but not yet in storage. */
  get pending(): number {
    return this.#buffer.length;
  }

  /** Never: the buffer is written out to storage whenever it fills. */
  get isFull(): boolean {
    return false;
  }

  /** Validates and buffers `systems` (or a batch's systems flagged in `mask`); writes the buffer out once it holds `capacity` systems. */
  async write(input: readonly System[] | Batch, mask?: ArrayLike<boolean | number>): Promise<void> {
    const systems = systemsToWrite(this.owner, input, mask);
    if (this.#closed) throw sinkClosed(this.owner);
    if (systems.length === 0) return;
    const prepared = systems.map((system, i) => ({ system, entry: this.prepare(system, this.#count + i) }));
    this.#buffer.push(...prepared);
    this.#count += prepared.length;
    if (this.#buffer.length >= this.capacity) await this.#enqueue(() => this.#flush());
  }

  /** Drops the buffered systems without writing them; what is already in storage stays. */
  clear(): void {
    this.#buffer = [];
  }

  /** Writes the buffer out and returns the systems that were in it. */
  async drain(): Promise<System[]> {
    return this.#enqueue(() => this.#flush());
  }

  /** Writes the buffer out and stays open: what was written so far is in storage when the promise settles. */
  async flush(): Promise<void> {
    await this.#enqueue(() => this.#flush());
  }

  /** Refuses further writes, writes the buffer out and finalizes the storage; retried by a second call if it fails. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#enqueue(async () => {
      await this.#flush();
      try {
        await this.finalize();
      } catch (error) {
        throw sinkWriteFailed(this.owner, error, this.describe());
      }
    });
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(task);
    // The queue goes on after a failure; the failure reaches the caller of that task.
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #flush(): Promise<System[]> {
    const batch = this.#buffer.slice();
    if (batch.length === 0) return [];
    try {
      await this.persist(batch.map((b) => b.entry));
    } catch (error) {
      throw sinkWriteFailed(this.owner, error, { ...this.describe(), unwritten: batch.length });
    }
    this.#buffer.splice(0, batch.length);
    return batch.map((b) => b.system);
  }
}
