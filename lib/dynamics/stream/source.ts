// Pulls systems from any sync or async iterable, one look-ahead at a time, so the batch can be filled up to
// an atom budget without taking a system it cannot hold yet.
import type { System } from '../../data/index.js';
import { HookmdTypeError } from '../../errors.js';

/** A source that threw while runStream pulled from it, with the systems that call had already taken. */
export class SourceFailure {
  constructor(readonly cause: unknown, readonly taken: readonly System[]) {}
}

/** Any source of systems: an array, a generator, an async generator, a stream of parsed frames. */
export type SystemSource = Iterable<System> | AsyncIterable<System>;

function atomCount(system: System): number {
  const positions = system?.positions as ArrayLike<unknown> | undefined;
  if (positions === undefined || typeof positions.length !== 'number') return 0;
  return positions.length > 0 && typeof positions[0] === 'object' ? positions.length : Math.floor(positions.length / 3);
}

export class StreamSource {
  readonly #iterator: Iterator<System> | AsyncIterator<System>;
  #next: System | undefined;
  #done = false;
  /** Systems handed out so far. */
  pulled = 0;

  constructor(source: SystemSource) {
    const asyncFactory = (source as AsyncIterable<System>)?.[Symbol.asyncIterator];
    const syncFactory = (source as Iterable<System>)?.[Symbol.iterator];
    if (typeof asyncFactory === 'function') this.#iterator = asyncFactory.call(source);
    else if (typeof syncFactory === 'function') this.#iterator = syncFactory.call(source);
    else throw new HookmdTypeError('INVALID_SOURCE', 'runStream: source must be an iterable or async iterable of systems', { field: 'source' });
  }

  /** True once the source is exhausted and nothing is held back. */
  get exhausted(): boolean {
    return this.#done && this.#next === undefined;
  }

  async #peek(): Promise<System | undefined> {
    if (this.#next === undefined && !this.#done) {
      const item = await this.#iterator.next();
      if (item.done === true) this.#done = true;
      else this.#next = item.value;
    }
    return this.#next;
  }

  /**
   * Takes up to `freeSystems` systems while they fit in `freeAtoms`; when `mustTake` is set, the first one is
   * taken even if it alone exceeds the atom budget (an empty batch has to hold something).
   */
  async take(freeAtoms: number, freeSystems: number, mustTake: boolean): Promise<System[]> {
    const taken: System[] = [];
    let free = freeAtoms;
    try {
      while (taken.length < freeSystems) {
        const next = await this.#peek();
        if (next === undefined) break;
        const n = atomCount(next);
        if (n > free && !(mustTake && taken.length === 0)) break;
        taken.push(next);
        this.#next = undefined;
        this.pulled++;
        free -= n;
      }
    } catch (cause) {
      // What this call already took was pulled from the source: the failure must not lose it.
      throw new SourceFailure(cause, taken);
    }
    return taken;
  }

  /** The look-ahead: pulled from the source, not yet handed out (it did not fit), or undefined. */
  get held(): System | undefined {
    return this.#next;
  }

  /** Hands out the look-ahead (counted as pulled), or undefined when nothing is held back. */
  handOut(): System | undefined {
    const held = this.#next;
    if (held === undefined) return undefined;
    this.#next = undefined;
    this.pulled++;
    return held;
  }

  /** Lets the source clean up (closes generators) when the stream ends early. */
  async close(): Promise<void> {
    await this.#iterator.return?.();
  }
}
