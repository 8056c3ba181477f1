// The leaving side of runStream: each graduated system goes to every sink exactly once, with its systemId,
// convergence flag and step count, optionally held back until every earlier input has left.
import type { ResolvedSystem, System } from '../../data/index.js';
import { HookmdError } from '../../errors.js';
import { showText } from '../../describe-value.js';

/** Where runStream writes the systems that leave the batch (every lib/io sink satisfies it). */
export interface StreamSink {
  write(systems: readonly System[]): void | Promise<void>;
  close?(): void | Promise<void>;
  /** Results the sink wants valid on every system it receives: `['stress']` makes runStream compute the stress. */
  readonly needs?: readonly string[];
}

export class StreamOutput {
  readonly #sinks: readonly StreamSink[];
  readonly #restoreOrder: boolean;
  readonly #held = new Map<number, ResolvedSystem>();
  // Systems whose write failed: a failed stream hands them back (StreamFlight.fail).
  readonly #unwritten: ResolvedSystem[] = [];
  #nextId = 0;
  processed = 0;
  converged = 0;

  constructor(sinks: readonly StreamSink[], restoreOrder: boolean) {
    this.#sinks = sinks;
    this.#restoreOrder = restoreOrder;
  }

  /** Whether some sink needs the stress of the systems it receives. */
  get needsStress(): boolean {
    return this.#sinks.some((sink) => sink.needs?.includes('stress') === true);
  }

  /** Hands graduated systems to the sinks (or holds them until their turn with restoreOrder). */
  async emit(systems: ResolvedSystem[]): Promise<void> {
    for (const system of systems) {
      this.processed++;
      if (system.info.converged === true) this.converged++;
    }
    if (!this.#restoreOrder) return this.#write(systems);
    for (const system of systems) this.#held.set(system.info.systemId as number, system);
    const ready: ResolvedSystem[] = [];
    while (this.#held.has(this.#nextId)) {
      ready.push(this.#held.get(this.#nextId) as ResolvedSystem);
      this.#held.delete(this.#nextId++);
    }
    return this.#write(ready);
  }

  /** Whether a sink has refused a write: nothing more is sent to a failed output. */
  get failed(): boolean {
    return this.#unwritten.length > 0;
  }

  /** Systems handed to the output that did not reach every sink: held back for their turn, or whose write failed. */
  pending(): ResolvedSystem[] {
    return [...this.#held.values(), ...this.#unwritten];
  }

  async #write(systems: readonly ResolvedSystem[]): Promise<void> {
    if (systems.length === 0) return;
    for (const sink of this.#sinks) {
      try {
        await sink.write(systems);
      } catch (cause) {
        this.#unwritten.push(...systems);
        throw new HookmdError('SINK_WRITE_FAILED', `runStream: a sink failed while writing ${systems.length} systems: ${showText((cause as Error)?.message ?? cause)}`, {
          systems: systems.map((s) => s.info?.systemId),
        }, { cause });
      }
    }
  }

  /** Closes every sink, reporting the first failure after trying them all. */
  async close(): Promise<void> {
    let first: unknown;
    for (const sink of this.#sinks) {
      try {
        await sink.close?.();
      } catch (error) {
        first ??= error;
      }
    }
    if (first !== undefined) {
      throw new HookmdError('SINK_WRITE_FAILED', `runStream: closing a sink failed: ${showText((first as Error)?.message ?? first)}`, {}, { cause: first });
    }
  }
}
