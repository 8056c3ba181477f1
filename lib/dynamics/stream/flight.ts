// What runStream holds between the source and the sinks: the systems pulled but not yet in the batch, those
// in the batch, and (through StreamOutput) those graduated but not written. When the stream fails while its
// sinks still work, the systems in the batch are written (converged: false) before it rejects; every other
// one comes back in the error's `pending` list, so a failure loses no system (docs/pipeline.md).
import { Batch, normalizeSystem, unitSystem, type ResolvedSystem, type System } from '../../data/index.js';
import { HookmdError, HookmdTypeError, isHookmdError } from '../../errors.js';
import type { StreamOutput } from './output.js';
import { SourceFailure, type StreamSource } from './source.js';
import { isStatus } from '../parameters.js';
import { showText } from '../../describe-value.js';

/**
 * The error a failed `runStream` rejects with: its own code and message, plus `pending`, every system the
 * stream had pulled from its source that did not reach every sink, in source order. Each carries
 * `info.systemId` (its position in the source); after a sink failure, those that had entered the batch come
 * as they stand, with `info.converged`, `info.steps` and `info.status` (otherwise they were written).
 *
 * @example
 * try { await fire.runStream(source, { sinks: [sink], maxAtoms: 4096 }); }
 * catch (e) { for (const system of (e as StreamFailure).pending) retry.push(system); }
 */
export interface StreamFailure extends Error {
  readonly code: string;
  readonly pending: readonly System[];
}

/** The systems between source and sinks, and what a failure must hand back. */
export class StreamFlight {
  /** The stream's batch once it exists. */
  batch: Batch | undefined;
  /** The step at which each systemId entered the batch. */
  readonly enteredAt: Map<number, number> = new Map();
  /** systemIds handed to the output since the last refill (still in the batch until it runs). */
  readonly graduated: Set<number> = new Set();
  /** Systems pulled and not yet admitted to the batch, and the source position of the first. */
  #arriving: readonly System[] = [];
  #arrivingFrom = 0;
  readonly #units: 'metal' | 'lj';
  readonly #exitStatus: number;

  constructor(units: 'metal' | 'lj', exitStatus: number) {
    this.#units = units;
    this.#exitStatus = exitStatus;
  }

  /** Records the systems `input` just handed out (the last of its pulls) until they are admitted. */
  arrive(systems: readonly System[], input: StreamSource): void {
    this.#arriving = systems;
    this.#arrivingFrom = input.pulled - systems.length;
  }

  /** The arriving systems are in the batch now; so the graduated ones have left it. */
  admitted(): void {
    this.#arriving = [];
    this.graduated.clear();
  }

  /** Throws INVALID_STATUS for an arriving system whose `info.status` is not an integer (checked before admission). */
  checkStatuses(): void {
    this.#arriving.forEach((system, k) => {
      const error = statusProblem(system, this.#arrivingFrom + k);
      if (error !== undefined) throw error;
    });
  }

  /**
   * The first arriving system that Batch.fromSystems refuses, as that error with its source position
   * (`runStream: systems[17].positions[0][0] is NaN ...`), or undefined when they are all valid.
   */
  firstInvalid(): unknown {
    for (let k = 0; k < this.#arriving.length; k++) {
      const error = this.#problem(this.#arriving[k], this.#arrivingFrom + k);
      if (error !== undefined) return error;
    }
    return undefined;
  }

  /** `info` of a system leaving the batch at index `s` at step `now`. */
  leaveInfo(info: Record<string, unknown>, systemId: number, status: number, now: number, convergedAt: number | undefined): Record<string, unknown> {
    const converged = status >= this.#exitStatus;
    const entered = this.enteredAt.get(systemId) ?? now;
    const steps = converged && convergedAt !== undefined ? convergedAt - entered + 1 : now - entered;
    return { ...info, systemId, converged, steps, status };
  }

  /**
   * Writes the systems of the batch that the output has not had yet, as they stand (converged: false): a
   * failed stream whose sinks still work leaves its partial results where a finished one would.
   */
  async settle(output: StreamOutput, now: number): Promise<void> {
    const systems = this.#inBatch(now);
    for (const system of systems) this.graduated.add(system.info.systemId as number);
    await output.emit(systems);
  }

  /**
   * Writes the source's look-ahead, pulled for a refill that a stop cancelled, as it came (steps: 0,
   * converged: false), so a stopped stream writes every system it pulled. An invalid one throws its own error.
   */
  async leaveUnstarted(output: StreamOutput, input: StreamSource): Promise<void> {
    const held = input.handOut();
    if (held === undefined) return;
    this.arrive([held], input);
    const invalid = this.firstInvalid();
    if (invalid !== undefined) throw invalid;
    this.#arriving = [];
    const [system] = Batch.fromSystems([held], { units: this.#units }).toSystems();
    const status = held.info?.status ?? 0;
    system.info = { ...system.info, systemId: input.pulled - 1, converged: (status as number) >= this.#exitStatus, steps: 0, status };
    await output.emit([system]);
  }

  /**
   * `error` with `pending` attached: the output's held and unwritten systems, the batch's systems not yet
   * handed to the output, and the valid arriving ones and the source's look-ahead. A value that cannot carry
   * it (a thrown string, a frozen object) is wrapped in STREAM_FAILED; a source's own failure becomes SOURCE_FAILED.
   */
  fail(error: unknown, output: StreamOutput, input: StreamSource, now: number, owner: string): StreamFailure {
    // The source's look-ahead was pulled too: it comes right after the systems handed out.
    const lookahead = input.held;
    const outside = lookahead === undefined ? this.#arriving : [...this.#arriving, lookahead];
    const arrivingFrom = input.pulled - this.#arriving.length;
    const arriving = outside.flatMap((system, k) => {
      const systemId = arrivingFrom + k;
      return this.#problem(system, systemId) === undefined ? [{ ...system, info: { ...(system.info ?? {}), systemId } }] : [];
    });
    const pending = [...output.pending(), ...this.#inBatch(now), ...arriving].sort((a, b) => (a.info?.systemId as number) - (b.info?.systemId as number));
    return attachPending(error, pending, owner);
  }

  /** The batch's systems not yet handed to the output, with the `info` of a system leaving at step `now`. */
  #inBatch(now: number): ResolvedSystem[] {
    const inBatch: ResolvedSystem[] = [];
    if (this.batch === undefined) return inBatch;
    const status = this.batch.read('status');
    const ids = this.batch.read('systemId');
    this.batch.toSystems().forEach((system, s) => {
      const id = ids[s];
      if (this.graduated.has(id)) return;
      system.info = this.leaveInfo(system.info, id, status[s], now, undefined);
      inBatch.push(system);
    });
    return inBatch;
  }

  #problem(system: System, index: number): unknown {
    try {
      normalizeSystem(system, index, unitSystem(this.#units), 'runStream');
    } catch (error) {
      return error;
    }
    return statusProblem(system, index);
  }
}

/** A source system may carry its starting status (`info.status`), which must be an integer. */
function statusProblem(system: System, index: number): HookmdTypeError | undefined {
  const status = system?.info?.status;
  if (status === undefined || isStatus(status)) return undefined;
  return new HookmdTypeError('INVALID_STATUS', `runStream: systems[${index}].info.status must be an integer in the int32 range, got ${showText(status)}`, { field: 'info.status', index, value: status });
}

function attachPending(error: unknown, pending: readonly System[], owner: string): StreamFailure {
  let failure: unknown = error;
  if (error instanceof SourceFailure) {
    const cause = error.cause;
    failure = isHookmdError(cause)
      ? cause
      : new HookmdError('SOURCE_FAILED', `${owner}: the source failed: ${cause instanceof Error ? cause.message : String(cause)}`, {}, { cause });
  }
  if (failure === null || typeof failure !== 'object' || !Object.isExtensible(failure)) {
    failure = new HookmdError('STREAM_FAILED', `${owner}: ${failure instanceof Error ? failure.message : String(failure)}`, {}, { cause: failure });
  }
  // Not enumerable: logging the error stays short however many systems were in flight.
  Object.defineProperty(failure, 'pending', { value: Object.freeze([...pending]), enumerable: false, configurable: true });
  return failure as StreamFailure;
}
