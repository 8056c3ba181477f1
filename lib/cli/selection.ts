// The input systems one run takes under --shard and --resume, and the labels its outputs then carry: a
// frame's info.systemId is the system's index in the whole input (not its position in this run's stream),
// and info.inputSystems the size of that input, so `hookmd merge` can put shards and queue chunks back in
// input order and see what is missing (docs/scale-out.md).
import type { System } from '../data/index.js';
import type { StreamSink, SystemSource } from '../dynamics/index.js';
import { inShard, shardSize, type Shard } from './shard.js';

/** What a selection keeps. */
export interface SelectionOptions {
  /** Only this shard of the input. */
  readonly shard?: Shard;
  /** Input indices already done (in the output being resumed). */
  readonly done?: ReadonlySet<number>;
  /** Systems in the whole input, when known; written to the outputs as info.inputSystems. */
  readonly inputSystems?: number;
  /** Index in the whole input of the first system of the source (a queue chunk starts mid-input). */
  readonly firstIndex?: number;
}

/**
 * The systems of a source that a run takes, in source order, with their input indices.
 *
 * @example
 * const selection = new InputSelection({ shard: { index: 1, count: 4 }, inputSystems: 100 });
 * await engine.runStream(selection.from(streamExtxyz('inputs.xyz')), { sinks: [selection.relabel(sink)] });
 */
export class InputSelection {
  readonly shard: Shard | undefined;
  readonly done: ReadonlySet<number>;
  readonly inputSystems: number | undefined;
  readonly #firstIndex: number;
  // The input index of the k-th system handed to the engine (runStream numbers them 0, 1, ... as taken).
  readonly #taken: number[] = [];

  constructor(options: SelectionOptions = {}) {
    this.shard = options.shard;
    this.done = options.done ?? new Set();
    this.inputSystems = options.inputSystems;
    this.#firstIndex = options.firstIndex ?? 0;
  }

  /** Whether the system at `inputIndex` is this run's to do. */
  includes(inputIndex: number): boolean {
    return inShard(inputIndex, this.shard) && !this.done.has(inputIndex);
  }

  /** How many systems this run takes from a source of `sourceSystems` (the whole input, or a chunk of it). */
  size(sourceSystems: number): number {
    const [first, end] = [this.#firstIndex, this.#firstIndex + sourceSystems];
    let done = 0;
    for (const index of this.done) if (index >= first && index < end && inShard(index, this.shard)) done++;
    return shardSize(end, this.shard) - shardSize(first, this.shard) - done;
  }

  /** The selected systems of `source` (the whole input, or a chunk of it from `firstIndex`), in order. */
  async *from(source: SystemSource): AsyncGenerator<System, void, undefined> {
    let index = this.#firstIndex;
    for await (const system of source) {
      if (this.includes(index)) {
        this.#taken.push(index);
        yield system;
      }
      index++;
    }
  }

  /** The input index of the `position`-th system taken (runStream's systemId). */
  inputIndex(position: number): number {
    const index = this.#taken[position];
    return index === undefined ? position : index;
  }

  /** Gives each system written through `sink` its input index (and the input's size). */
  relabel(sink: StreamSink): StreamSink {
    const label = (system: System): System => this.label(system, this.inputIndex(system.info?.systemId as number));
    return {
      write: (systems: readonly System[]) => sink.write(systems.map(label)),
      close: () => sink.close?.(),
      ...(sink.needs === undefined ? {} : { needs: sink.needs }),
    };
  }

  /** `system` with info.systemId = `inputIndex` (and info.inputSystems when known). */
  label(system: System, inputIndex: number): System {
    const size = this.inputSystems === undefined ? {} : { inputSystems: this.inputSystems };
    return { ...system, info: { ...system.info, systemId: inputIndex, ...size } };
  }
}
